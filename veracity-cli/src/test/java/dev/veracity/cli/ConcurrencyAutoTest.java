package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.config.VeracityConfig;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --concurrency auto} through {@code veracity eval} against a simulator that holds fewer requests than auto
 * starts with: the refusals cut the limit, the client retries them, and the run ends with every question answered
 * and the limit recorded.
 */
class ConcurrencyAutoTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** 4 generating, 4 queued, 503 past them: auto starts at 16, so its first wave is partly refused. */
    private static SimServer server() throws Exception {
        return SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(20, 0)).capacity(4).maxQueue(4)
                .queueFullStatus(503).retryAfter(Duration.ofMillis(10)).recentRequestLimit(0).build());
    }

    private CliRun.Result eval(SimServer sim, Path out, String... more) throws Exception {
        Path data = MemoryBench.generate(dir.resolve("q.jsonl"), 60);
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("eval", "--method", "standard-rag",
                "--dataset", "ramdocs", "--data", data.toString(), "--out", out.toString(), "--llm-base-url",
                sim.baseUrl(), "--model", "sim-model", "--cache", "off"));
        args.addAll(java.util.List.of(more));
        return CliRun.runWithStderrInOut(args.toArray(String[]::new));
    }

    @Test
    void autoAgainstAServerWithACapacityFinishesWithoutFailuresAndRecordsWhereItSettled() throws Exception {
        Path out = dir.resolve("auto");
        try (SimServer sim = server()) {
            CliRun.Result r = eval(sim, out, "--concurrency", "auto");

            assertThat(r.code()).as(r.out() + r.err()).isZero();
            assertThat(sim.counters().queueRejections()).as("the server refused some").isPositive();
            JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
            assertThat(s.path("n").asInt()).isEqualTo(60);
            assertThat(s.path("errors").asInt()).isZero();
            assertThat(s.path("failed").asInt()).isZero();
            assertThat(s.has("concurrency")).as("auto is no number").isFalse();
            JsonNode limit = s.path("concurrency_limit");
            assertThat(limit.path("overload_drops").asLong()).isEqualTo(sim.counters().queueRejections());
            assertThat(limit.path("lowest").asInt()).as("the refusals cut it below its start").isLessThan(16);
            assertThat(limit.path("settled").asInt()).isBetween(limit.path("lowest").asInt(), limit.path("highest").asInt());
            assertThat(r.out()).contains("60 questions: 0 already done, 60 answered now, 0 failed")
                    .contains("Concurrency auto settled at " + limit.path("settled").asInt() + " (lowest ");
        }
    }

    @Test
    void aFixedLimitKeepsTheSummaryAsItWas() throws Exception {
        Path out = dir.resolve("fixed");
        try (SimServer sim = server()) {
            CliRun.Result r = eval(sim, out, "--concurrency", "8");

            assertThat(r.code()).as(r.out() + r.err()).isZero();
            JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
            assertThat(s.path("concurrency").asInt()).isEqualTo(8);
            assertThat(s.has("concurrency_limit")).isFalse();
            assertThat(r.out()).doesNotContain("Concurrency auto");
        }
    }

    @Test
    void evalDefaultsToAutoWhenNothingSetsTheConcurrency() throws Exception {
        assumeTrue(System.getenv("VERACITY_CONCURRENCY") == null, "the environment sets the concurrency");
        assumeTrue(!Files.exists(VeracityConfig.defaultFile(System.getenv())), "a config file may set it");
        Path out = dir.resolve("default");
        try (SimServer sim = server()) {
            CliRun.Result r = eval(sim, out);

            assertThat(r.code()).as(r.out() + r.err()).isZero();
            JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
            assertThat(s.has("concurrency_limit")).isTrue();
            assertThat(s.path("questions_at_once").asInt()).as("auto's highest limit").isEqualTo(256);
        }
    }

    @Test
    void aBadConcurrencyIsAOneLineErrorBeforeAnyWork() {
        Path out = dir.resolve("bad");
        CliRun.Result r = CliRun.run("eval", "--method", "standard-rag", "--dataset", "ramdocs", "--data",
                dir.resolve("none.jsonl").toString(), "--out", out.toString(), "--concurrency", "lots");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("veracity eval: setting 'concurrency' must be a positive integer or auto, was 'lots'");
        assertThat(out).doesNotExist();
    }

    @Test
    void theConfigSettingReadsAutoForEveryCommandThatResolvesIt() {
        ModelOptions o = new ModelOptions();
        o.concurrency = "auto";
        assertThat(o.resolve().concurrency().adaptive()).isTrue();
        o.concurrency = "12";
        assertThat(o.resolve(Map.of("concurrency", "auto")).concurrency().adaptive()).as("a flag beats eval's default")
                .isFalse();
    }
}
