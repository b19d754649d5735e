package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.rl.rollout.HotpotSample;
import dev.veracity.sim.RecordedRequest;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eval --method c3po} and {@code rollout c3po} against the simulator: the proxy on its own model, C-3PO's
 * signals in the summary, one line and no call for a dataset without passages and without an index, a rollout that
 * resumes.
 */
class C3poCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String err;
    private String out;

    private int run(String... args) {
        CliRun.Result r = CliRun.run(args);
        err = r.err();
        out = r.out();
        return r.code();
    }

    private Path nq() throws Exception {
        Path data = dir.resolve("nq.jsonl");
        Files.writeString(data, "{\"question\": \"capital of france\", \"answer\": [\"Paris\"]}\n");
        return data;
    }

    @Test
    void aDatasetWithoutPassagesAndNoIndexStopsBeforeAnyCallWithOneLine() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            int code = run("rollout", "c3po", "--dataset", "nq-open", "--data", nq().toString(), "--out",
                    dir.resolve("r").toString(), "--llm-base-url", sim.baseUrl(), "--model", "m", "--cache", "off");
            assertThat(code).isEqualTo(2);
            assertThat(err.strip().lines()).singleElement().asString().startsWith("veracity rollout c3po: ")
                    .contains("--index");
            code = run("eval", "--method", "c3po", "--dataset", "nq-open", "--data", nq().toString(), "--out",
                    dir.resolve("e").toString(), "--llm-base-url", sim.baseUrl(), "--model", "m", "--cache", "off");
            assertThat(code).isEqualTo(2);
            assertThat(err.strip().lines()).singleElement().asString().contains("--index");
            assertThat(sim.counters().generationRequests()).isZero();
        }
    }

    @Test
    void evalRunsTheProxyOnItsOwnModelAndSummarisesStrategiesDepthsAndCalls() throws Exception {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 6);
        try (SimServer sim = SimServer.start(SimConfig.builder().models("big", "small").build())) {
            int code = run("eval", "--method", "c3po", "--dataset", "hotpotqa", "--data", data.toString(), "--out",
                    dir.resolve("e").toString(), "--llm-base-url", sim.baseUrl(), "--model", "big", "--proxy-model",
                    "small", "--cache", "off");
            assertThat(code).as(err).isZero();
            List<String> proxyPrompts = new ArrayList<>();
            List<String> llmPrompts = new ArrayList<>();
            for (RecordedRequest r : sim.recentGenerations()) {
                String model = r.body().path("model").asText();
                String user = r.body().path("messages").path(1).path("content").asText();
                boolean proxyAgent = user.startsWith("You are an intelligent assistant");
                assertThat(model).as(user.substring(0, 60)).isEqualTo(proxyAgent ? "small" : "big");
                (proxyAgent ? proxyPrompts : llmPrompts).add(user);
            }
            assertThat(proxyPrompts).isNotEmpty();
            // the authors' test: the trained proxy zero-shot, the LLM's roadmap and answers with their examples
            assertThat(proxyPrompts).noneMatch(p -> p.contains("Here are some examples:"));
            assertThat(llmPrompts).filteredOn(p -> p.startsWith("You are an expert assistant")).isNotEmpty()
                    .allMatch(p -> p.contains("Here are some examples:\n###\nExample 1\n"));
        }
        JsonNode summary = JSON.readTree(dir.resolve("e/summary.json").toFile());
        JsonNode signals = summary.get("signals");
        assertThat(signals.get("strategy_no_retrieval").asDouble() + signals.get("strategy_retrieval").asDouble()
                + signals.get("strategy_planning").asDouble()).isEqualTo(1.0);
        assertThat(signals.get("strategy_planning").asDouble()).isPositive();
        assertThat(signals.has("depth_3") && signals.has("depth_15")).isTrue();
        assertThat(signals.get("proxy_calls").asDouble()).isPositive();
        assertThat(signals.get("llm_calls").asDouble()).isGreaterThanOrEqualTo(1.0);
        assertThat(summary.at("/config/proxy").asText()).contains("model=small");
        for (String line : Files.readAllLines(dir.resolve("e/results.jsonl"))) {
            assertThat(JSON.readTree(line).get("parse_failures")).isEmpty();
        }
    }

    /** {@code --proxy-base-url A,B}: the proxy's calls are shared between its two servers, none goes to the LLM's. */
    @Test
    void theProxyOnTwoServersSharesItsCalls() throws Exception {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 4);
        try (SimServer llm = SimServer.start(SimConfig.builder().models("big").build());
             SimServer p1 = SimServer.start(SimConfig.builder().models("small").build());
             SimServer p2 = SimServer.start(SimConfig.builder().models("small").build())) {
            int code = run("eval", "--method", "c3po", "--dataset", "hotpotqa", "--data", data.toString(), "--out",
                    dir.resolve("e").toString(), "--llm-base-url", llm.baseUrl(), "--model", "big", "--proxy-base-url",
                    p1.baseUrl() + "," + p2.baseUrl(), "--proxy-model", "small", "--cache", "off");
            assertThat(code).as(err).isZero();
            assertThat(llm.recentGenerations()).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.body().path("model").asText()).isEqualTo("big"));
            for (SimServer proxy : List.of(p1, p2)) {
                assertThat(proxy.recentGenerations()).isNotEmpty()
                        .allSatisfy(r -> assertThat(r.body().path("model").asText()).isEqualTo("small"));
            }
        }
        assertThat(JSON.readTree(dir.resolve("e/summary.json").toFile()).at("/config/proxy").asText())
                .contains(",").contains("model=small");
    }

    @Test
    void hotpotQuestionsOverAnIndexOfTheirParagraphsRunEndToEndWithEveryProxyOutputParsed() throws Exception {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 9);
        Path index = dir.resolve("idx");
        assertThat(run("index", "--format", "dataset", "--dataset", "hotpotqa", "--corpus", data.toString(), "--out",
                index.toString())).as(err).isZero();
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            int code = run("eval", "--method", "c3po", "--dataset", "hotpotqa", "--data", data.toString(), "--index",
                    index.toString(), "--metric", "substring,em", "--out", dir.resolve("e").toString(), "--llm-base-url",
                    sim.baseUrl(), "--model", "sim-model", "--cache", "off");
            assertThat(code).as(err).isZero();
        }
        JsonNode summary = JSON.readTree(dir.resolve("e/summary.json").toFile());
        assertThat(summary.at("/retrieval/source").asText()).isEqualTo("index");
        JsonNode signals = summary.get("signals");
        assertThat(signals.get("strategy_no_retrieval").asDouble()).isPositive();
        assertThat(signals.get("strategy_retrieval").asDouble()).isPositive();
        assertThat(signals.get("strategy_planning").asDouble()).isPositive();
        assertThat(signals.get("fallbacks").asDouble()).isZero();
        assertThat(summary.at("/metrics/substring").asDouble()).isPositive();
        for (String line : Files.readAllLines(dir.resolve("e/results.jsonl"))) {
            assertThat(JSON.readTree(line).get("parse_failures")).isEmpty();
        }
    }

    @Test
    void rolloutWritesTreesRecordsAndSeedDataAndResumes() throws Exception {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 3);
        Path r = dir.resolve("r");
        try (SimServer sim = SimServer.start(SimConfig.builder().models("m").build())) {
            String[] args = {"rollout", "c3po", "--dataset", "hotpotqa", "--data", data.toString(), "--out", r.toString(),
                    "--llm-base-url", sim.baseUrl(), "--model", "m", "--cache", "off", "--preset", "authors"};
            assertThat(run(args)).as(err).isZero();
            assertThat(err).contains("proxy + ").contains("3 rolled out now")
                    .contains("proxy same as the LLM, few-shot all (seed 42)").contains(" seed rows");
            assertThat(JSON.readTree(out).get("trees").asInt()).isEqualTo(3);
            long asked = sim.counters().generationRequests();
            assertThat(run(args)).as(err).isZero();
            assertThat(err).contains("3 already done, 0 rolled out now");
            assertThat(sim.counters().generationRequests()).isEqualTo(asked);
        }
        // the folder's trees and records validate against their schemas (docs/schema)
        assertThat(dev.veracity.eval.results.SchemaFiles.checkRolloutFolder(r)).isEmpty();
        // the authors' sampling script passes --max_depth 13
        assertThat(Files.readAllLines(r.resolve("trees.jsonl"))).hasSize(3)
                .allSatisfy(l -> assertThat(JSON.readTree(l).get("max_depth").asInt()).isEqualTo(13));
        List<String> records = Files.readAllLines(r.resolve("records.jsonl"));
        assertThat(records).isNotEmpty();
        // every record is in the one agent-record schema: read back by its parser, credited, and inspectable
        for (String line : records) {
            dev.veracity.method.AgentRecord rec = dev.veracity.method.AgentRecord.fromJson(JSON.readTree(line));
            assertThat(rec.method()).isEqualTo("c3po");
            assertThat(rec.credit()).isNotNull().isBetween(0.0, 1.0);
            assertThat(rec.messages()).isNotEmpty();
        }
        assertThat(run("rl", "inspect", r.resolve("records.jsonl").toString())).as(err).isZero();
        assertThat(r.resolve("seed.jsonl")).exists();
        assertThat(JSON.readTree(r.resolve("dataset_info.json").toFile()).at("/c3po_seed/file_name").asText())
                .isEqualTo("seed.jsonl");
        assertThat(r.resolve("rollout-summary.json")).exists();
        assertThat(run("rollout", "c3po", "--dataset", "hotpotqa", "--data", data.toString(), "--out", r.toString(),
                "--llm-base-url", "http://127.0.0.1:9/v1", "--few-shot", "some")).isEqualTo(2);
        assertThat(err.strip().lines()).singleElement().asString().contains("--few-shot").contains("auto, none, llm, all");
    }

    /** The proxy's server and model are checked like the LLM's before any question, in eval and in the rollout. */
    @Test
    void aProxyServerThatIsDownOrLacksTheModelStopsTheRunBeforeAnyQuestion() throws Exception {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 3);
        try (SimServer sim = SimServer.start(SimConfig.builder().models("big", "small").build())) {
            List<String[]> commands = List.of(
                    new String[] {"eval", "--method", "c3po", "--dataset", "hotpotqa", "--data", data.toString(),
                            "--out", dir.resolve("e").toString(), "--cache", "off"},
                    new String[] {"rollout", "c3po", "--dataset", "hotpotqa", "--data", data.toString(), "--out",
                            dir.resolve("r").toString(), "--cache", "off"});
            for (String[] command : commands) {
                List<String> down = new ArrayList<>(List.of(command));
                down.addAll(List.of("--llm-base-url", sim.baseUrl(), "--model", "big", "--proxy-base-url",
                        "http://127.0.0.1:9/v1", "--proxy-model", "small"));
                assertThat(run(down.toArray(String[]::new))).as(err).isEqualTo(2);
                assertThat(err.strip().lines()).singleElement().asString().contains("cannot reach the proxy server at"
                        + " http://127.0.0.1:9/v1").contains("--proxy-base-url").contains("nothing was run");

                List<String> wrong = new ArrayList<>(List.of(command));
                wrong.addAll(List.of("--llm-base-url", sim.baseUrl(), "--model", "big", "--proxy-model", "tiny"));
                assertThat(run(wrong.toArray(String[]::new))).as(err).isEqualTo(2);
                assertThat(err.strip().lines()).singleElement().asString().contains("proxy server")
                        .contains("does not serve model 'tiny'").contains("big, small").contains("--proxy-model");
            }
            assertThat(sim.counters().generationRequests()).isZero();
        }
        assertThat(dir.resolve("e").resolve("results.jsonl")).doesNotExist();
        assertThat(dir.resolve("r").resolve("trees.jsonl")).doesNotExist();
    }
}
