package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScoreCommandTest {

    @TempDir
    Path dir;

    @Test
    void aCommaListScoresEveryMetric() throws Exception {
        Path in = dir.resolve("p.jsonl");
        Files.writeString(in, "{\"id\": \"1\", \"prediction\": \"the Eiffel Tower\", \"gold\": [\"Eiffel Tower\"]}\n"
                + "{\"id\": \"2\", \"prediction\": \"Paris France\", \"gold\": [\"Paris\"]}\n");
        Path out = dir.resolve("s.jsonl");
        CliRun.Result r = CliRun.run("score", "--metric", "f1,em", "--input", in.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(0);
        ObjectMapper json = new ObjectMapper();
        JsonNode agg = json.readTree(r.out());
        assertThat(agg.get("f1").get("metric").asText()).isEqualTo("f1");
        assertThat(agg.get("em").get("mean").asDouble()).isEqualTo(0.5);
        assertThat(agg.get("f1").get("mean").asDouble()).isBetween(0.8, 0.9);
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(2);
        JsonNode second = json.readTree(lines.get(1));
        assertThat(second.get("id").asText()).isEqualTo("2");
        assertThat(second.get("em").asDouble()).isEqualTo(0.0);
        assertThat(second.get("f1").asDouble()).isBetween(0.66, 0.67);
    }
}
