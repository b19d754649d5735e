package dev.veracity.rl.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.results.SchemaFiles;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.RolloutTree;
import dev.veracity.methods.c3po.C3po;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.jsonl.JsonlRows;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * C-3PO end to end against the simulator's built-in reader over the real HTTP stack: every proxy output parses, the
 * three strategies all occur; the dataset rollout writes trees, records and seed data, and resumes after a kill
 * (a torn tree line, records of an unfinished question) with every question written exactly once.
 */
class C3poRolloutRunTest {

    @TempDir
    Path dir;

    private static MethodContext context(SimServer sim, LlmClient client) {
        return new MethodContext(client, CallContext.of("t", "", "c3po"), "hotpotqa", false, Map.of());
    }

    private static LlmClient client(OpenAiCompatibleBackend backend) {
        return LlmClient.builder(backend).concurrency(8).cache(ResponseCache.NONE, CacheMode.OFF).build();
    }

    @Test
    void inferenceOnHotpotQuestionsParsesEveryProxyOutputAndUsesAllThreeStrategies() throws IOException {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 9);
        List<QaItem> items = Datasets.load("hotpotqa", data);
        try (SimServer sim = SimServer.start(SimConfig.builder().build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim").build();
             LlmClient client = client(backend)) {
            Set<String> strategies = new HashSet<>();
            int correct = 0;
            for (QaItem item : items) {
                MethodAnswer a = new C3po().answer(item, context(sim, client));
                assertThat(a.parseFailures()).as(item.question()).isEmpty();
                a.signals().forEach((k, v) -> {
                    if (k.startsWith("strategy_") && v == 1.0) {
                        strategies.add(k);
                    }
                });
                correct += Rewards.byName("c3po-accuracy").score(dev.veracity.rl.reward.RewardInput.of(item.question(),
                        a.prediction(), new dev.veracity.rl.reward.Label(item.goldForms(), List.of(), null, List.of(), null)))
                        .score() >= 1 ? 1 : 0;
            }
            assertThat(strategies).containsExactlyInAnyOrder("strategy_no_retrieval", "strategy_retrieval",
                    "strategy_planning");
            assertThat(correct).isGreaterThan(0);
        }
    }

    @Test
    void aRolloutResumesAfterAKillWithEveryQuestionWrittenOnce() throws IOException {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 6);
        Path out = dir.resolve("out");
        RolloutSettings settings = RolloutSettings.of(RolloutSettings.Preset.PAPER);
        try (SimServer sim = SimServer.start(SimConfig.builder().build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim").build();
             LlmClient client = client(backend)) {
            List<String> lines = new ArrayList<>();
            C3poRolloutRun.Spec first = new C3poRolloutRun.Spec("hotpotqa", data, 4, out, settings, "paper", 2, 4, "r1");
            C3poRolloutRun.Outcome o1 = C3poRolloutRun.run(first, context(sim, client), Rewards.byName("c3po-accuracy"),
                    lines::add);
            assertThat(o1.written()).isEqualTo(4);
            assertThat(o1.failures()).isEmpty();
            assertThat(lines).hasSize(4).allMatch(l -> l.contains("proxy + ") && l.contains("LLM calls"));
            long records4 = Files.lines(out.resolve(RolloutFiles.RECORDS)).count();

            // a kill: records of question s4 written, its tree line torn half-way
            String orphan = Files.readAllLines(out.resolve(RolloutFiles.RECORDS)).getFirst().replace("\"s", "\"x")
                    .replaceFirst("\"question_id\":\"x\\d+\"", "\"question_id\":\"s4\"");
            Files.writeString(out.resolve(RolloutFiles.RECORDS), orphan + "\n", StandardOpenOption.APPEND);
            Files.writeString(out.resolve(RolloutFiles.TREES), "{\"id\":\"s4\",\"question\":\"In wh",
                    StandardOpenOption.APPEND);

            C3poRolloutRun.Spec all = new C3poRolloutRun.Spec("hotpotqa", data, 0, out, settings, "paper", 3, 4, "r2");
            C3poRolloutRun.Outcome o2 = C3poRolloutRun.run(all, context(sim, client), Rewards.byName("c3po-accuracy"),
                    s -> { });
            assertThat(o2.skipped()).isEqualTo(4);
            assertThat(o2.written()).isEqualTo(2);
        }
        // every line of the trees and the records validates against its schema (docs/schema) and reads as its type
        assertThat(SchemaFiles.checkRolloutFolder(out)).isEmpty();
        List<String> ids = new ArrayList<>();
        JsonlRows.forEach(out.resolve(RolloutFiles.TREES), (n, row) -> {
            assertThat(row.path("schema_version").asInt()).isEqualTo(dev.veracity.schema.SchemaVersion.CURRENT);
            ids.add(RolloutTree.fromJson(row, n).id());
        });
        assertThat(ids).containsExactlyInAnyOrder("s0", "s1", "s2", "s3", "s4", "s5");
        Set<String> recordKeys = new HashSet<>();
        List<String> dup = new ArrayList<>();
        JsonlRows.forEach(out.resolve(RolloutFiles.RECORDS), (n, row) -> {
            if (!recordKeys.add(row.get("question_id").asText() + "/" + row.get("node_id").asText())) {
                dup.add(row.toString());
            }
        });
        assertThat(dup).isEmpty();
        assertThat(recordKeys).allMatch(k -> ids.contains(k.substring(0, k.indexOf('/'))));
        // every tree forced the three strategies; records carry the credit as reward
        JsonlRows.forEach(out.resolve(RolloutFiles.TREES), (n, row) -> {
            List<String> first = new ArrayList<>();
            row.get("nodes").forEach(node -> {
                if (node.get("depth").asInt() == 1) {
                    first.add(node.get("action").asText());
                }
            });
            assertThat(first).hasSize(3).contains("[No Retrieval]", "[Planning]");
            assertThat(row.get("calls").get("proxy").asInt() + row.get("calls").get("llm").asInt())
                    .isLessThanOrEqualTo(256);
        });
        JsonNode summary = JsonlRows.JSON.readTree(Files.readString(out.resolve("rollout-summary.json"), StandardCharsets.UTF_8));
        assertThat(summary.get("trees").asInt()).isEqualTo(6);
        assertThat(summary.get("router_credit").has("planning")).isTrue();
    }

    /**
     * The warm-up's seed data: {@code dataset_info.json} registers it for LLaMA-Factory (other entries kept), each
     * proxy step of a question is written once, a question whose gold answer normalises to nothing ("The") has none
     * although the authors' rule credits all its leaves, and the rows hold the zero-shot prompts (the simulator plays
     * both models here, so every prompt sent carried the authors' few-shot examples: C-3PO-ICL).
     */
    @Test
    void theSeedDataIsRegisteredForLlamaFactoryOnceEachStepAndWithoutEmptyGoldAnswers() throws IOException {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 6);
        com.fasterxml.jackson.databind.node.ArrayNode rows = (com.fasterxml.jackson.databind.node.ArrayNode)
                JsonlRows.JSON.readTree(data.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) rows.get(1)).put("answer", "The");
        JsonlRows.JSON.writeValue(data.toFile(), rows);
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("dataset_info.json"), "{\"alpaca_en_demo\": {\"file_name\": \"alpaca_en_demo.json\"}}");
        List<String> lines = new ArrayList<>();
        try (SimServer sim = SimServer.start(SimConfig.builder().build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim").build();
             LlmClient client = client(backend)) {
            C3poRolloutRun.run(new C3poRolloutRun.Spec("hotpotqa", data, 0, out, RolloutSettings.of(
                    RolloutSettings.Preset.PAPER), "paper", 2, 4, "r"), context(sim, client),
                    Rewards.byName("c3po-accuracy"), lines::add);
        }
        JsonNode info = JsonlRows.JSON.readTree(out.resolve("dataset_info.json").toFile());
        assertThat(info.has("alpaca_en_demo")).isTrue();
        assertThat(info.get(C3poRolloutRun.SEED_DATASET)).isEqualTo(JsonlRows.JSON.readTree("{\"file_name\": \"seed.jsonl\","
                + " \"formatting\": \"alpaca\", \"columns\": {\"prompt\": \"instruction\", \"query\": \"input\","
                + " \"response\": \"output\", \"system\": \"system\"}}"));

        Map<String, Integer> perQuestion = new java.util.TreeMap<>();
        Set<String> steps = new HashSet<>();
        JsonlRows.forEach(out.resolve(RolloutFiles.SEED), (n, row) -> {
            perQuestion.merge(row.get("question_id").asText(), 1, Integer::sum);
            assertThat(steps.add(row.get("question_id").asText() + "\0" + row.get("instruction").asText() + "\0"
                    + row.get("output").asText())).as("a step written twice: " + row).isTrue();
            assertThat(row.get("instruction").asText()).doesNotContain("Here are some examples");
            assertThat(row.get("input").asText()).isEmpty();
            assertThat(row.get("system").asText()).isEqualTo("You are a helpful assistant.");
        });
        assertThat(perQuestion).doesNotContainKey("s1").isNotEmpty();
        assertThat(lines).filteredOn(l -> l.startsWith("s1:")).singleElement().asString()
                .contains("no seed data: every gold answer normalises to nothing");
        JsonlRows.forEach(out.resolve(RolloutFiles.TREES), (n, row) -> {
            if (row.get("id").asText().equals("s1")) {
                assertThat(row.get("correct_leaves").asInt()).isEqualTo(row.get("leaf_count").asInt()); // "The" credits all
            }
        });
        // what was sent to the proxy carried the examples: the records keep it
        JsonlRows.forEach(out.resolve(RolloutFiles.RECORDS), (n, row) -> {
            if (!row.path("forced").asBoolean()) {
                assertThat(row.get("messages").get(1).get("content").asText()).contains("Here are some examples:");
            }
        });
    }
}
