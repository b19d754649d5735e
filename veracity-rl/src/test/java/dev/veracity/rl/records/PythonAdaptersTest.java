package dev.veracity.rl.records;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.AgentRecord;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.c3po.rollout.Rollout;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.methods.c3po.rollout.TreeJson;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.PythonDriver;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.rl.rollout.C3poRolloutRun;
import dev.veracity.rl.rollout.HotpotSample;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python adapters ({@code python/veracity_rl/records.py}) run by {@code python3} on records made here (MARCH's
 * and C-3PO's, with the simulator's token ids): rLLM Episodes with one Trajectory per role and slime Samples keep
 * every id, logprob and reward of the records; stand-in rllm and slime packages with the real constructors check the
 * keyword arguments. Skipped, saying so, only without python3.
 */
class PythonAdaptersTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SHIMS = PythonDriver.SHIMS;

    @TempDir
    Path dir;

    private List<ObjectNode> records(SimServer sim, boolean ids) throws IOException {
        Path ramdocs = dir.resolve("ramdocs.jsonl");
        if (!Files.exists(ramdocs)) {
            try (InputStream in = getClass().getResourceAsStream("/dev/veracity/rl/export/ramdocs-3.jsonl")) {
                Files.copy(in, ramdocs);
            }
        }
        List<ObjectNode> out = new ArrayList<>();
        try (OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl())
                .returnTokenIds(ids).build(); LlmClient client = LlmClient.builder(backend).build()) {
            for (QaItem item : Datasets.load("ramdocs", ramdocs).subList(0, 2)) {
                MethodContext ctx = new MethodContext(client, CallContext.of("run-a", item.id(), "march"), "ramdocs",
                        true, Map.of());
                new MarchMethod().run(item, ctx).trainingRecords("run-a").forEach(r -> out.add(r.toJson()));
            }
            QaItem hotpot = Datasets.load("hotpotqa", HotpotSample.write(dir.resolve("h.json"), 3)).get(2);
            MethodContext ctx = new MethodContext(client, CallContext.of("run-b", hotpot.id(), "c3po"), "hotpotqa",
                    false, Map.of());
            out.addAll(TreeJson.records(new Rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER),
                    C3poRolloutRun.leafReward(Rewards.byName("c3po-accuracy"))).run(hotpot, ctx), "run-b"));
        }
        return out;
    }

    @Test
    void recordsBecomeRllmEpisodesAndSlimeSamplesKeepingEveryToken() throws Exception {
        Assumptions.assumeTrue(PythonDriver.available(), "python3 is not installed: the adapter test (python/veracity_rl/records.py)"
                + " is skipped");
        List<ObjectNode> withIds;
        List<ObjectNode> without;
        try (SimServer sim = SimServer.start()) {
            // C-3PO's forced first level is written, not sampled: it has no tokens to train on
            withIds = records(sim, true).stream().filter(r -> !r.path("forced").asBoolean()).toList();
            without = records(sim, false);
        }
        Path tokens = write("tokens.jsonl", withIds);
        Path bare = write("bare.jsonl", without);
        JsonNode out = driver(tokens, bare);

        // rLLM: one episode per question, a trajectory per role, a step per record with its ids, logprobs and reward
        Map<String, List<ObjectNode>> byQuestion = new LinkedHashMap<>();
        withIds.forEach(r -> byQuestion.computeIfAbsent(r.get("question_id").asText(), k -> new ArrayList<>()).add(r));
        JsonNode episodes = out.get("episodes");
        assertThat(episodes).hasSize(3);
        int steps = 0;
        for (JsonNode e : episodes) {
            String q = e.get("task").get("question_id").asText();
            assertThat(e.get("id").asText()).isEqualTo(q + ":0");
            List<ObjectNode> rs = byQuestion.get(q);
            List<String> roles = rs.stream().map(r -> r.get("role").asText()).distinct().toList();
            assertThat(e.get("trajectories")).extracting(t -> t.get("name").asText()).containsExactlyElementsOf(roles);
            for (JsonNode t : e.get("trajectories")) {
                List<ObjectNode> mine = rs.stream().filter(r -> r.get("role").asText().equals(t.get("name").asText()))
                        .toList();
                assertThat(t.get("steps")).hasSize(mine.size());
                for (int i = 0; i < mine.size(); i++) {
                    JsonNode s = t.get("steps").get(i);
                    ObjectNode r = mine.get(i);
                    assertThat(s.get("prompt_ids")).isEqualTo(r.get("prompt_ids")).isNotEmpty();
                    assertThat(s.get("response_ids")).isEqualTo(r.get("response_ids"));
                    assertThat(s.get("logprobs")).isEqualTo(r.get("logprobs"));
                    assertThat(s.get("reward").asDouble()).isEqualTo(r.get("reward").asDouble());
                    assertThat(s.get("model_response").asText()).isEqualTo(r.get("response").asText());
                    JsonNode chat = s.get("chat_completions");
                    assertThat(chat.get(chat.size() - 1).get("content").asText()).isEqualTo(r.get("response").asText());
                    assertThat(s.get("info").get("node_id").asText()).isEqualTo(r.get("node_id").asText());
                    steps++;
                }
            }
        }
        assertThat(steps).isEqualTo(withIds.size());
        // MARCH's Solver trajectory (one attempt) carries its ZTR as the trajectory's reward
        JsonNode solver = episodes.get(0).get("trajectories").get(0);
        assertThat(solver.get("name").asText()).isEqualTo("solver");
        assertThat(solver.get("reward").asDouble()).isEqualTo(solver.get("steps").get(0).get("reward").asDouble());

        // slime: tokens = prompt ids + response ids, a loss mask over the response, groups per question and role
        JsonNode samples = out.get("samples");
        assertThat(samples).hasSize(withIds.size());
        Map<String, Integer> group = new HashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            JsonNode s = samples.get(i);
            ObjectNode r = withIds.get(i);
            List<Integer> expected = new ArrayList<>();
            r.get("prompt_ids").forEach(x -> expected.add(x.asInt()));
            r.get("response_ids").forEach(x -> expected.add(x.asInt()));
            assertThat(JSON.convertValue(s.get("tokens"), List.class)).isEqualTo(expected);
            assertThat(s.get("response_length").asInt()).isEqualTo(r.get("response_ids").size());
            assertThat(s.get("loss_mask")).hasSize(r.get("response_ids").size()).allMatch(x -> x.asInt() == 1);
            assertThat(s.get("rollout_log_probs")).isEqualTo(r.get("logprobs"));
            assertThat(s.get("reward").asDouble()).isEqualTo(r.get("reward").asDouble());
            String key = r.get("question_id").asText() + "/" + r.get("role").asText();
            assertThat(s.get("group_index").asInt()).isEqualTo(group.computeIfAbsent(key, k -> group.size()));
        }

        assertThat(out.get("untokenised").asText()).endsWith("bare.jsonl:1: no prompt_ids/response_ids (rerun with"
                + " --return-token-ids against a server that returns them, e.g. vLLM >= 0.10.2; tokens are never"
                + " re-made here)");
        assertThat(out.get("lenient_steps")).hasSize(without.size()).allMatch(n -> n.asInt() == 0);
        assertThat(out.get("broken").asText()).contains("broken.jsonl:2: not JSON");
        assertThat(out.get("mismatch").asText()).startsWith("row 0: 1 logprobs for ");
        assertThat(out.get("real").get("episode").asText()).isEqualTo("rllm.agents.agent.Episode");
        assertThat(out.get("real").get("step").asText()).isEqualTo("rllm.agents.agent");
        assertThat(out.get("real").get("sample").asText()).isEqualTo("slime.utils.types.Sample");
        assertThat(out.get("real").get("status").asText()).isEqualTo("completed");
        assertThat(out.get("real").get("plain_when_asked").asText()).isEqualTo("RllmEpisode");
    }

    private Path write(String name, List<ObjectNode> rows) throws IOException {
        Path f = dir.resolve(name);
        List<String> lines = new ArrayList<>();
        rows.forEach(r -> lines.add(r.toString()));
        Files.write(f, lines);
        for (String l : lines) {
            AgentRecord.fromJson(JSON.readTree(l)); // what Python gets is the one schema
        }
        return f;
    }

    private JsonNode driver(Path tokens, Path bare) throws IOException, InterruptedException {
        Path driver = PythonDriver.script("adapter_driver.py", dir);
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        return PythonDriver.run(dir, Map.of(), driver.toString(), SHIMS.toString(), tokens.toString(), bare.toString(),
                scratch.toString());
    }
}
