package dev.veracity.rl.export;

import static dev.veracity.rl.export.ExportFixtures.JSON;
import static dev.veracity.rl.export.ExportFixtures.files;
import static dev.veracity.rl.export.ExportFixtures.quote;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parquet writer, read back by DuckDB: nested values, absent values, refusals, and nothing left on failure. */
class ParquetSinkTest {

    @TempDir
    Path dir;

    private static ObjectNode row(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }

    @Test
    void rowsComeBackAsWrittenWithNullsEmptyListsAndLongTextInOrder() throws Exception {
        Path out = dir.resolve("t.parquet");
        String big = "word ".repeat(200_000); // a page of CRAG's size, past parquet-java's 1 MB page
        List<ObjectNode> rows = List.of(
                row("{\"data_source\": \"ramdocs\", \"prompt\": [{\"role\": \"system\", \"content\": \"s\"},"
                        + " {\"role\": \"user\", \"content\": \"Qu'est-ce que c'est ? \\u00e9\\u4e2d\"}],"
                        + " \"ability\": \"fact-reasoning\", \"reward_model\": {\"style\": \"rule\", \"ground_truth\": \"{}\"},"
                        + " \"extra_info\": {\"split\": \"train\", \"index\": 0, \"id\": \"a\", \"question\": \"q\","
                        + " \"method\": \"march\", \"role\": \"solver\", \"agent\": \"solver\"}}"),
                // no agent, an empty prompt, no reward model: absent optional values, read back as null
                row("{\"data_source\": \"ramdocs\", \"prompt\": [], \"ability\": \"fact-reasoning\","
                        + " \"extra_info\": {\"split\": \"train\", \"index\": 9007199254740993, \"id\": \"b\","
                        + " \"question\": \"q2\", \"method\": \"cot\", \"role\": \"answerer\", \"agent\": null}}"),
                row("{\"data_source\": \"x\", \"prompt\": [{\"role\": \"user\", \"content\": \"" + big + "\"}]}"));
        try (ParquetSink sink = new ParquetSink(out, VerlRow.schema(false))) {
            rows.forEach(sink::write);
            sink.commit();
        }
        List<JsonNode> back = ExportFixtures.parquetRows(out);
        assertThat(back).hasSize(3);
        assertThat(back.get(0)).isEqualTo(rows.get(0));
        assertThat(back.get(1).get("prompt")).isEmpty();
        assertThat(back.get(1).get("reward_model").isNull()).isTrue();
        assertThat(back.get(1).at("/extra_info/index").asLong()).isEqualTo(9007199254740993L);
        assertThat(back.get(1).at("/extra_info/agent").isNull()).isTrue();
        assertThat(back.get(2).at("/prompt/0/content").asText()).isEqualTo(big);
        assertThat(back.get(2).get("extra_info").isNull()).isTrue();
        assertThat(ExportFixtures.parquetSchema(out)).containsEntry("prompt", "STRUCT(\"role\" VARCHAR, \"content\" VARCHAR)[]")
                .containsEntry("extra_info", "STRUCT(split VARCHAR, \"index\" BIGINT, id VARCHAR, question VARCHAR,"
                        + " \"method\" VARCHAR, \"role\" VARCHAR, agent VARCHAR)");
        assertThat(codecs(out)).containsExactly("GZIP");
        assertThat(files(dir)).containsExactly("t.parquet");
    }

    @Test
    void aFieldTheSchemaLacksOrAValueOfAnotherTypeIsRefusedByName() throws Exception {
        try (ParquetSink sink = new ParquetSink(dir.resolve("t.parquet"), VerlRow.schema(false))) {
            assertThatThrownBy(() -> sink.write(row("{\"data_source\": \"x\", \"agent_name\": \"a\"}")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("parquet row: field agent_name is not in the schema");
            assertThatThrownBy(() -> sink.write(row("{\"extra_info\": {\"index\": \"7\"}}")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("parquet row: extra_info.index is a JSON string, not the schema's INT64 INTEGER(64,true)");
            assertThatThrownBy(() -> sink.write(row("{\"prompt\": [{\"role\": 1}]}")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("parquet row: prompt[0].role is a JSON number, not the schema's BINARY STRING");
            assertThatThrownBy(() -> sink.write(row("{\"prompt\": {\"role\": \"user\"}}")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("parquet row: prompt is a JSON object, not the schema's list");
            assertThatThrownBy(() -> sink.write(row("{\"reward_model\": \"rule\"}")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("parquet row: reward_model is a JSON string, not the schema's struct");
        }
        assertThat(files(dir)).isEmpty();
    }

    @Test
    void closingWithoutCommitLeavesTheTargetAsItWasAndNoTemporaryFile() throws Exception {
        Path out = Files.writeString(dir.resolve("t.parquet"), "old");
        try (ParquetSink sink = new ParquetSink(out, VerlRow.schema(true))) {
            sink.write(row("{\"data_source\": \"x\", \"agent_name\": \"a\"}"));
        }
        assertThat(Files.readString(out)).isEqualTo("old");
        assertThat(files(dir)).containsExactly("t.parquet");
    }

    @Test
    void theTestsRunWithoutHadoopAsTheCommandLineDoes() {
        // surefire leaves Hadoop's API (needed to compile only) off this module's test class path
        assertThatThrownBy(() -> Class.forName("org.apache.hadoop.conf.Configuration"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    private static List<String> codecs(Path f) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT DISTINCT compression FROM parquet_metadata(" + quote(f.toString()) + ")")) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }
}
