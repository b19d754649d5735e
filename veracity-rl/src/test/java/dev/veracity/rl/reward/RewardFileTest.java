package dev.veracity.rl.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.rl.jsonl.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RewardFileTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path file(String name, String... lines) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    @Test
    void eachLineComesBackWithItsRewardAndDetailsAndItsOtherFields() throws Exception {
        Path in = file("in.jsonl",
                "{\"id\": 7, \"question\": \"q\", \"response\": \"\\\\boxed{Paris}\", \"label\": \"Paris\"}",
                "",
                "{\"question\": \"q\", \"response\": \"\\\\boxed{I don't know}\", \"label\": {\"answers\": [\"Paris\"]}, \"reward\": 99}");
        Path out = dir.resolve("sub/out.jsonl");
        RewardFile.Summary s = RewardFile.score(in, out, Rewards.byName("truthrl-ternary"));
        assertThat(s.rows()).isEqualTo(2);
        assertThat(s.mean()).isEqualTo(0.5);
        assertThat(s.fallbacks()).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(2);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("id").asInt()).isEqualTo(7);
        assertThat(first.get("reward").asDouble()).isEqualTo(1.0);
        assertThat(first.get("details").toString()).isEqualTo("{\"outcome\":\"correct\",\"boxed\":true}");
        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.get("reward").asDouble()).isEqualTo(0.0); // the input's "reward": 99 is replaced
        assertThat(second.get("details").get("outcome").asText()).isEqualTo("abstain");
        try (var files = Files.list(out.getParent())) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("out.jsonl");
        }
    }

    @Test
    void badInputNamesFileLineAndProblemAndWritesNothing() throws Exception {
        String good = "{\"question\": \"q\", \"response\": \"Paris\", \"label\": \"Paris\"}";
        record Case(String line, String problem) {
        }
        for (Case c : List.of(
                new Case("{\"question\": \"q\", \"response\": \"Paris\"", "not JSON"),
                new Case("[1, 2]", "expected a JSON object"),
                new Case("{\"question\": \"q\", \"response\": \"x\", \"label\": \"a\"} {}", "not JSON"),
                new Case("{\"question\": \"q\", \"label\": \"Paris\"}", "missing \"response\""),
                new Case("{\"response\": \"q\", \"label\": \"Paris\"}", "missing \"question\""),
                new Case("{\"question\": \"q\", \"response\": \"x\"}", "missing \"label\""),
                new Case("{\"question\": \"q\", \"response\": 3, \"label\": \"a\"}", "\"response\" must be a string"),
                new Case("{\"question\": \"q\", \"response\": \"x\", \"label\": \"{not json\"}", "bad \"label\": the label starts with '{'"),
                new Case("{\"question\": \"q\", \"response\": \"x\", \"label\": []}", "bad \"label\": the label list has no gold answer"),
                new Case("{\"question\": \"q\", \"question\": \"r\", \"response\": \"x\", \"label\": \"a\"}", "not JSON (Duplicate field"))) {
            Path in = file("bad.jsonl", good, good, c.line(), good);
            Path out = dir.resolve("never.jsonl");
            assertThatThrownBy(() -> RewardFile.score(in, out, Rewards.byName("em")))
                    .as(c.line()).isInstanceOf(BadInputException.class)
                    .hasMessageStartingWith(in + ":3: ").hasMessageContaining(c.problem())
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThat(out).doesNotExist();
        }
        try (var files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList()).isEmpty();
        }
    }

    @Test
    void aFailedRunLeavesAnExistingOutputAsItWas() throws Exception {
        Path out = file("out.jsonl", "old content");
        Path in = file("in.jsonl", "{\"question\": \"q\", \"response\": \"x\", \"label\": \"a\"}", "oops");
        assertThatThrownBy(() -> RewardFile.score(in, out, Rewards.byName("f1"))).hasMessageContaining(":2: not JSON");
        assertThat(Files.readString(out)).isEqualTo("old content\n");
    }

    @Test
    void theOutputMayBeTheInput() throws Exception {
        Path f = file("same.jsonl", "{\"question\": \"q\", \"response\": \"Paris\", \"label\": \"Paris\"}",
                "{\"question\": \"q\", \"response\": \"Lyon\", \"label\": \"Paris\"}");
        RewardFile.score(f, f, Rewards.byName("em"));
        List<String> lines = Files.readAllLines(f);
        assertThat(lines).hasSize(2);
        assertThat(JSON.readTree(lines.get(0)).get("reward").asDouble()).isEqualTo(1.0);
        assertThat(JSON.readTree(lines.get(1)).get("response").asText()).isEqualTo("Lyon");
        assertThat(JSON.readTree(lines.get(1)).get("reward").asDouble()).isEqualTo(0.0);
    }

    @Test
    void aMissingInputIsOneLine() {
        Path in = dir.resolve("absent.jsonl");
        assertThatThrownBy(() -> RewardFile.score(in, dir.resolve("o.jsonl"), Rewards.byName("em")))
                .isInstanceOf(BadInputException.class).hasMessage(in + ": no such file");
    }

    @Test
    void rowsBeyondOneChunkKeepTheirOrder() throws Exception {
        int n = RewardFile.CHUNK * 2 + 7;
        String lines = IntStream.range(0, n).mapToObj(i -> "{\"question\": \"q\", \"response\": \"" + (i % 3 == 0 ? "yes" : "no")
                + "\", \"label\": \"yes\", \"i\": " + i + "}").collect(Collectors.joining("\n"));
        Path in = dir.resolve("big.jsonl");
        Files.writeString(in, lines);
        Path out = dir.resolve("big-out.jsonl");
        RewardFile.Summary s = RewardFile.score(in, out, Rewards.byName("em"));
        assertThat(s.rows()).isEqualTo(n);
        List<String> got = Files.readAllLines(out);
        for (int i = 0; i < n; i++) {
            JsonNode o = JSON.readTree(got.get(i));
            assertThat(o.get("i").asInt()).isEqualTo(i);
            assertThat(o.get("reward").asDouble()).isEqualTo(i % 3 == 0 ? 1.0 : 0.0);
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(20)
    void aTenMegabyteResponseIsScoredNotRefused() throws Exception {
        String huge = "a ".repeat(5_000_000) + "\\\\boxed{Paris}";
        Path in = file("huge.jsonl", "{\"question\": \"q\", \"response\": \"" + huge + "\", \"label\": \"Paris\"}");
        Path out = dir.resolve("huge-out.jsonl");
        RewardFile.score(in, out, Rewards.byName("truthrl-ternary"));
        assertThat(JSON.readTree(Files.readAllLines(out).getFirst()).get("reward").asDouble()).isEqualTo(1.0);
    }
}
