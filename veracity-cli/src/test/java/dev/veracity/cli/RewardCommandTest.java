package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.cli.CliRun.Result;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.rl.reward.RewardSettings;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.rl.reward.RewardsTable;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code veracity reward}, in-process through the real command line and its error handling. */
class RewardCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private List<String> modelArgs(SimServer sim) {
        return List.of("--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off",
                "--trace-file", dir.resolve("traces.db").toString());
    }

    @Test
    void theSharedTableGivesTheSameRewardsAndDetailsThroughTheCliAsThroughTheJavaApi() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new)).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(8).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            int compared = 0;
            for (Map.Entry<String, List<RewardsTable.Row>> e : RewardsTable.byReward().entrySet()) {
                String name = e.getKey();
                List<RewardsTable.Row> rows = e.getValue();
                Path in = dir.resolve(name.replace(':', '_') + ".jsonl");
                List<String> lines = new ArrayList<>();
                rows.forEach(r -> lines.add(r.row().toString()));
                Files.write(in, lines);
                Path out = dir.resolve(name.replace(':', '_') + ".out.jsonl");
                List<String> args = new ArrayList<>(List.of("reward", name, "--in", in.toString(), "--out", out.toString()));
                if (Rewards.spec(name).needsModel()) {
                    args.addAll(modelArgs(sim));
                }
                Result r = run(args.toArray(String[]::new));
                assertThat(r.code()).as(name + ": " + r.err()).isZero();
                assertThat(JSON.readTree(r.out()).get("rows").asInt()).isEqualTo(rows.size());
                List<ObjectNode> api = RewardsTable.javaApi(Rewards.byName(name, RewardSettings.defaults().withLlm(client)), rows);
                List<String> written = Files.readAllLines(out);
                assertThat(written).hasSize(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    JsonNode cli = JSON.readTree(written.get(i));
                    ObjectNode both = JSON.createObjectNode();
                    both.set("reward", cli.get("reward"));
                    both.set("details", cli.get("details"));
                    assertThat(both).as("row " + rows.get(i).line() + " (" + name + ")").isEqualTo(api.get(i));
                    RewardsTable.assertExpected(rows.get(i), both);
                    // the rest of the line comes back as it was
                    assertThat(cli.get("expected")).isEqualTo(rows.get(i).row().get("expected"));
                    compared++;
                }
            }
            assertThat(compared).isEqualTo(dev.veracity.rl.reward.RewardsTable.rows().size());
        }
    }

    @Test
    void badInputIsOneLineNamingFileAndLineWithExitTwoAndNoOutput() throws Exception {
        String good = "{\"question\": \"q\", \"response\": \"Paris\", \"label\": \"Paris\"}";
        for (String[] c : List.of(
                new String[] {"{\"question\": \"q\", \"response\": \"Paris\", \"label\": ", "not JSON"},
                new String[] {"{\"question\": \"q\", \"label\": \"Paris\"}", "missing \"response\""},
                new String[] {"{\"question\": \"q\", \"response\": \"x\", \"label\": \"{\\\"answers\\\": \"}", "bad \"label\""})) {
            Path in = dir.resolve("bad.jsonl");
            Files.write(in, List.of(good, "", c[0], good));
            Path out = dir.resolve("out.jsonl");
            Result r = run("reward", "em", "--in", in.toString(), "--out", out.toString());
            assertThat(r.code()).as(c[0]).isEqualTo(2);
            assertThat(r.err()).startsWith("veracity reward: " + in + ":3: ").contains(c[1]);
            assertThat(r.err().strip()).doesNotContain("\n");
            assertThat(out).doesNotExist();
        }
    }

    @Test
    void unknownRewardsAndMisplacedOptionsAreRefused() throws Exception {
        Path in = dir.resolve("in.jsonl");
        Files.writeString(in, "{\"question\": \"q\", \"response\": \"Paris\", \"label\": \"Paris\"}\n");
        Result unknown = run("reward", "exact-match", "--in", in.toString(), "--out", dir.resolve("o.jsonl").toString());
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown reward 'exact-match'").contains("truthrl-ternary");
        Result option = run("reward", "em", "--in", in.toString(), "--out", dir.resolve("o.jsonl").toString(), "--option", "samples=5");
        assertThat(option.code()).isEqualTo(2);
        assertThat(option.err()).contains("--option sets MARCH's settings");
        Result judge = run("reward", "truthrl-ternary", "--judge", "crag", "--in", in.toString(), "--out", dir.resolve("o.jsonl").toString());
        assertThat(judge.code()).isEqualTo(2);
        assertThat(judge.err()).contains("judge 'crag'");
        assertThat(dir.resolve("o.jsonl")).doesNotExist();
    }

    @Test
    void aMarchRowWithoutDocumentsIsBadInput() throws Exception {
        Path in = dir.resolve("in.jsonl");
        Files.writeString(in, "{\"question\": \"q\", \"response\": \"It is 52%.\", \"label\": \"52%\"}\n");
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new)).build())) {
            List<String> args = new ArrayList<>(List.of("reward", "march-ztr", "--in", in.toString(), "--out",
                    dir.resolve("o.jsonl").toString()));
            args.addAll(modelArgs(sim));
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err()).contains(in + ":1: ").contains("no \"documents\"");
            assertThat(sim.counters().generationRequests()).isZero();
        }
    }

    @Test
    void aServerThatIsDownStopsTheRunBeforeAnyRow() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path in = appendixCInput(1);
        Result r = run("reward", "march-ztr", "--in", in.toString(), "--out", dir.resolve("o.jsonl").toString(),
                "--llm-base-url", "http://127.0.0.1:" + port + "/v1", "--model", "m", "--cache", "off",
                "--trace-file", dir.resolve("t.db").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("cannot reach the model server").contains("nothing was run");
        assertThat(dir.resolve("o.jsonl")).doesNotExist();
    }

    @Test
    void aCheckerThatFailsMidRunGivesFlaggedFallbacksAndSaysSo() throws Exception {
        Path config = dir.resolve("config.properties");
        Files.writeString(config, "max-attempts=1\n");
        Path in = appendixCInput(1);
        Path out = dir.resolve("o.jsonl");
        // the Proposer's call passes, the three Checker samples get HTTP 500, no retry
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new))
                .faults(FaultPlan.script(FaultKind.NONE, FaultKind.SERVER_ERROR, FaultKind.SERVER_ERROR, FaultKind.SERVER_ERROR))
                .build())) {
            List<String> args = new ArrayList<>(List.of("reward", "march-ztr", "--in", in.toString(), "--out", out.toString(),
                    "--fallback-score", "-0.25", "--config", config.toString()));
            args.addAll(modelArgs(sim));
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(JSON.readTree(r.out()).get("fallbacks").asInt()).isEqualTo(1);
            assertThat(r.err()).contains("1 of 1 rows got the fallback score -0.25");
            JsonNode row = JSON.readTree(Files.readAllLines(out).getFirst());
            assertThat(row.get("reward").asDouble()).isEqualTo(-0.25);
            assertThat(row.at("/details/fallback").asBoolean()).isTrue();
            assertThat(row.at("/details/fallback_reason").asText()).startsWith("model call failed");
        }
    }

    private Path appendixCInput(int n) throws Exception {
        ObjectNode label = JSON.createObjectNode();
        label.putArray("answers").add("-");
        var docs = label.putArray("documents");
        AppendixC.DOCUMENTS.forEach(d -> docs.add(d.text()));
        ObjectNode row = JSON.createObjectNode();
        row.put("question", AppendixC.QUESTION);
        row.put("response", AppendixC.SOLVER_RESPONSE);
        row.set("label", label);
        Path in = dir.resolve("appendix-c.jsonl");
        Files.write(in, java.util.Collections.nCopies(n, row.toString()));
        return in;
    }
}
