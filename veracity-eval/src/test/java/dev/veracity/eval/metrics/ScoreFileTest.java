package dev.veracity.eval.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScoreFileTest {

    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    private Path input(String... lines) throws IOException {
        Path p = dir.resolve("preds.jsonl");
        Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return p;
    }

    private List<JsonNode> outputLines(Path out) throws IOException {
        return Files.readAllLines(out).stream().map(l -> {
            try {
                return M.readTree(l);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }).toList();
    }

    @Test
    void scoresEachLineAndReturnsTheAggregate() throws IOException {
        Path in = input(
                "{\"id\": \"q1\", \"prediction\": \"The Beatles\", \"gold\": [\"beatles\"], \"extra\": 1}",
                "",
                "{\"id\": 2, \"prediction\": \"cat cat dog\", \"gold\": [\"cat cat\", \"x\"]}",
                "{\"id\": \"q3\", \"prediction\": null, \"gold\": []}");
        Path out = dir.resolve("sub/scores.jsonl");
        ObjectNode agg = ScoreFile.score(in, out, "f1");
        List<JsonNode> lines = outputLines(out);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0).get("id").asText()).isEqualTo("q1");
        assertThat(lines.get(0).get("score").asDouble()).isEqualTo(1.0);
        assertThat(lines.get(1).get("id").isNumber()).isTrue();
        assertThat(lines.get(1).get("score").asDouble()).isEqualTo(0.8);
        assertThat(lines.get(2).get("score").asDouble()).isEqualTo(0.0);
        assertThat(agg.get("metric").asText()).isEqualTo("f1");
        assertThat(agg.get("n").asInt()).isEqualTo(3);
        assertThat(agg.get("mean").asDouble()).isEqualTo(0.6);
    }

    @Test
    void multiFieldMetricsWritePerItemFieldsAndExtras() throws IOException {
        Path in = input(
                "{\"id\": \"a\", \"prediction\": \"All Correct Answers: [Jordan X, Jordan Y]\", "
                        + "\"gold\": [\"Jordan X\", \"Jordan Y\"], \"wrong\": [\"Jordan Z\"]}",
                "{\"id\": \"b\", \"prediction\": \"All Correct Answers: [Jordan X, Jordan Z]\", "
                        + "\"gold\": [\"Jordan X\", \"Jordan Y\"], \"wrong\": [\"Jordan Z\"]}");
        Path out = dir.resolve("scores.jsonl");
        ObjectNode agg = ScoreFile.score(in, out, "strict-multi");
        List<JsonNode> lines = outputLines(out);
        assertThat(lines.get(0).get("score").asDouble()).isEqualTo(1.0);
        assertThat(lines.get(1).get("score").asDouble()).isEqualTo(0.0);
        assertThat(lines.get(1).get("precision").asDouble()).isEqualTo(0.5);
        assertThat(lines.get(1).get("recall").asDouble()).isEqualTo(0.5);
        assertThat(agg.get("mean").asDouble()).isEqualTo(0.5);
        assertThat(agg.get("recall").asDouble()).isEqualTo(0.75);

        Path t = input("{\"id\": \"a\", \"prediction\": \"\\\\boxed{I don't know}\", \"gold\": [\"x\"]}");
        ObjectNode tagg = ScoreFile.score(t, out, "truthfulness");
        assertThat(outputLines(out).get(0).get("outcome").asText()).isEqualTo("abstain");
        assertThat(tagg.get("abstention").asDouble()).isEqualTo(1.0);
        assertThat(tagg.get("truthfulness").asDouble()).isEqualTo(0.0);
    }

    @Test
    void malformedLinesNameFileLineAndProblem() throws IOException {
        Path out = dir.resolve("scores.jsonl");
        String ok = "{\"id\": 1, \"prediction\": \"a\", \"gold\": [\"a\"]}";
        assertError(input(ok, "{\"id\": 2, \"prediction\": \"a\", \"gold\": [\"a\"", ok), out, ":2: invalid JSON");
        assertError(input(ok, "", "{\"id\": 3, \"gold\": [\"a\"]}"), out, ":3: missing \"prediction\"");
        assertError(input("{\"id\": 1, \"prediction\": \"a\", \"gold\": \"a\"}"), out, ":1: \"gold\" is not a list");
        assertError(input("{\"id\": 1, \"prediction\": \"a\"}"), out, ":1: missing \"gold\"");
        assertError(input("[1, 2]"), out, ":1: expected a JSON object");
        assertError(input("{\"prediction\": \"a\", \"gold\": []}"), out, ":1: missing \"id\"");
        assertError(input("{\"id\": 1, \"prediction\": \"a\", \"gold\": [], \"wrong\": 5}"), out,
                ":1: \"wrong\" is not a list");
        assertError(input(ok + " {}"), out, ":1: invalid JSON");
        assertThat(out).doesNotExist(); // nothing written on failure
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("preds.jsonl");
        }
    }

    @Test
    void unknownMetricAndMissingFileAreUserErrors() throws IOException {
        Path in = input("{\"id\": 1, \"prediction\": \"a\", \"gold\": [\"a\"]}");
        assertThatThrownBy(() -> ScoreFile.score(in, dir.resolve("o.jsonl"), "bleu"))
                .isInstanceOf(ScoreFileException.class)
                .hasMessageContaining("unknown metric 'bleu'")
                .hasMessageContaining("strict-multi");
        Path missing = dir.resolve("nope.jsonl");
        assertThatThrownBy(() -> ScoreFile.score(missing, dir.resolve("o.jsonl"), "em"))
                .isInstanceOf(ScoreFileException.class)
                .hasMessageContaining("nope.jsonl");
    }

    private static void assertError(Path in, Path out, String expected) {
        assertThatThrownBy(() -> ScoreFile.score(in, out, "em"))
                .isInstanceOf(ScoreFileException.class)
                .hasMessageStartingWith(in.toString())
                .hasMessageContaining(expected);
    }
}
