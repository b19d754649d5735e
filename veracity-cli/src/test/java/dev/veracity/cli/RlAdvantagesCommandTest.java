package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.CliRun.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code veracity rl advantages}, in-process through the real command line. */
class RlAdvantagesCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path grpoInput() throws Exception {
        Path in = dir.resolve("grpo.jsonl");
        Files.write(in, List.of("{\"group\": \"q1\", \"reward\": 1}", "{\"group\": \"q1\", \"reward\": 0}",
                "{\"group\": \"q1\", \"reward\": 0}", "{\"group\": \"q1\", \"reward\": -1}", "{\"group\": \"q2\", \"reward\": 1}",
                "{\"group\": \"q2\", \"reward\": 1}"));
        return in;
    }

    @Test
    void grpoPerFlavorReproducesTheGuideVectors() throws Exception {
        Path in = grpoInput();
        double[][] want = {{1.2247434, 0, 0, -1.2247434, 0, 0}, {1.2245949, 0, 0, -1.2245949, 0, 0}, {1.2247449, 0, 0, -1.2247449, 0, 0}};
        String[] flavors = {"verl", "trl", "openrlhf"};
        for (int f = 0; f < 3; f++) {
            Path out = dir.resolve(flavors[f] + ".jsonl");
            Result r = run("rl", "advantages", "--estimator", "grpo", "--flavor", flavors[f], "--in", in.toString(), "--out", out.toString());
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode summary = JSON.readTree(r.out());
            assertThat(summary.get("rows").asInt()).isEqualTo(6);
            assertThat(summary.get("groups").asInt()).isEqualTo(2);
            assertThat(summary.get("zero_variance_groups").asInt()).isEqualTo(1);
            double[] got = Files.readAllLines(out).stream().mapToDouble(l -> read(l).get("advantage").asDouble()).toArray();
            assertThat(got).as(flavors[f]).containsExactly(want[f], within(1e-6));
        }
    }

    @Test
    void gaeGivesAdvantagesAndReturnsBeforeWhitening() throws Exception {
        Path in = dir.resolve("gae.jsonl");
        Files.writeString(in, "{\"rewards\": [0, 0, 1], \"values\": [0.5, 0.6, 0.7]}\n");
        Path out = dir.resolve("gae-out.jsonl");
        Result r = run("rl", "advantages", "--estimator", "gae", "--gamma", "1", "--lambda", "0.95", "--in", in.toString(),
                "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode row = read(Files.readAllLines(out).getFirst());
        assertThat(row.get("advantages").get(0).asDouble()).isCloseTo(0.46575, within(1e-9));
        assertThat(row.get("advantages").get(1).asDouble()).isCloseTo(0.385, within(1e-9));
        assertThat(row.get("advantages").get(2).asDouble()).isCloseTo(0.30, within(1e-9));
        assertThat(row.get("returns").get(0).asDouble()).isCloseTo(0.96575, within(1e-9));
        assertThat(JSON.readTree(r.out()).get("whiten").asText()).isEqualTo("none");
    }

    @Test
    void badInvocationsAndBadRowsAreOneLineWithExitTwo() throws Exception {
        Path in = grpoInput();
        Path out = dir.resolve("never.jsonl");
        String[][] cases = {
                {"--estimator", "grpo"}, {"--estimator", "grpo", "--flavor", "verl", "--gamma", "0.9"},
                {"--estimator", "gae", "--gamma", "1"}, {"--estimator", "gae", "--gamma", "1", "--lambda", "1", "--flavor", "trl"},
                {"--estimator", "ppo"}, {"--estimator", "grpo", "--flavor", "verl", "--scale", "batch"},
                {"--estimator", "grpo", "--flavor", "megatron"}};
        String[] says = {"needs --flavor", "--gamma is not an option of --estimator grpo", "needs --gamma and --lambda",
                "--flavor is not an option of --estimator gae", "must be grpo or gae", "scale_rewards=\"batch\"",
                "unknown GRPO flavor 'megatron'"};
        for (int i = 0; i < cases.length; i++) {
            List<String> args = new java.util.ArrayList<>(List.of("rl", "advantages", "--in", in.toString(), "--out", out.toString()));
            args.addAll(List.of(cases[i]));
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(String.join(" ", cases[i])).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", cases[i])).startsWith("veracity rl advantages: ").contains(says[i]);
        }
        Path bad = dir.resolve("bad.jsonl");
        Files.write(bad, List.of("{\"group\": \"a\", \"reward\": 1}", "{\"group\": \"a\", \"reward\": oops}"));
        Result r = run("rl", "advantages", "--estimator", "grpo", "--flavor", "trl", "--in", bad.toString(), "--out", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("veracity rl advantages: " + bad + ":2: not JSON");
        assertThat(out).doesNotExist();
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
