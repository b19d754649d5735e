package dev.veracity.rl.areal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.config.ApiKey;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.rl.jsonl.JsonlRows;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.rl.rollout.HotpotSample;
import dev.veracity.sim.ArealSession;
import dev.veracity.sim.RecordedRequest;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The online rollout against the simulator's AReaL gateway over real HTTP: the simulator records which interactions
 * each session had and which reward was set on each, and the test checks them against the method's own records.
 */
class OnlineRolloutTest {

    private static final String ADMIN = "test-admin-key";

    @TempDir
    Path dir;

    private static SimServer sim() {
        return SimServer.start(SimConfig.builder().areal(ADMIN).build());
    }

    private static ArealClient areal(SimServer sim, String admin) {
        return new ArealClient(sim.arealUrl(), ApiKey.of(admin), Duration.ofSeconds(10), Duration.ofSeconds(2));
    }

    /** The policy: the gateway's chat completions with the session key, one sample per request, no cache. */
    private static OnlineRollout.PolicyClients policy(SimServer sim) {
        return session -> LlmClient.builder(OpenAiCompatibleBackend.builder().baseUrl(sim.arealUrl()).model("policy")
                .apiKey(session.key()).singleSampleRequests(true).build()).closeBackend(true).concurrency(4)
                .cache(ResponseCache.NONE, CacheMode.OFF).build();
    }

    private Path ramdocs() throws IOException {
        Path data = dir.resolve("ramdocs.jsonl");
        try (InputStream in = getClass().getResourceAsStream("/dev/veracity/rl/export/ramdocs-3.jsonl")) {
            Files.copy(in, data);
        }
        return data;
    }

    private static OnlineRollout.Spec march(Path data, Path out, int limit) {
        return new OnlineRollout.Spec(OnlineRollout.Method.MARCH, "ramdocs", data, limit, out, 2, "run-1", Map.of(),
                null, null);
    }

    private static Map<String, Double> rewardsByInteraction(Path out) {
        Map<String, Double> m = new HashMap<>();
        JsonlRows.forEach(out.resolve(OnlineRollout.REWARDS), (n, row) ->
                assertThat(m.put(row.get("interaction_id").asText(), row.get("reward").asDouble())).isNull());
        return m;
    }

    @Test
    void marchRewardsTheSolverAndCheckerZeroInteractionsOfEachSessionWithTheZtr() throws IOException {
        Path out = dir.resolve("march");
        try (SimServer sim = sim();
             OpenAiCompatibleBackend plain = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("base").build();
             LlmClient base = LlmClient.builder(plain).build()) {
            List<String> progress = new ArrayList<>();
            OnlineRollout.Outcome o = OnlineRollout.run(march(ramdocs(), out, 0), areal(sim, ADMIN), policy(sim),
                    new MethodContext(base, CallContext.of("t", "", "march"), "ramdocs", true, Map.of()), progress::add);
            assertThat(o.failures()).isEmpty();
            assertThat(o.written()).isEqualTo(3);
            assertThat(progress).hasSize(3).allMatch(l -> l.contains("rewarded"));

            List<ArealSession> sessions = sim.arealSessions();
            assertThat(sessions).hasSize(3).allMatch(ArealSession::ended);
            Map<String, Double> written = rewardsByInteraction(out);
            Map<String, String> roleOf = new HashMap<>();
            JsonlRows.forEach(out.resolve(OnlineRollout.REWARDS), (n, row) ->
                    roleOf.put(row.get("interaction_id").asText(), row.get("role").asText()));
            int sessionCalls = 0;
            for (ArealSession s : sessions) {
                // exactly the Solver and Checker sample 0 went through the session, each rewarded once with the ZTR
                assertThat(s.interactions()).extracting(i -> roleOf.get(i.id())).containsExactlyInAnyOrder("solver", "checker");
                for (ArealSession.Interaction i : s.interactions()) {
                    assertThat(i.rewardsSet()).isEqualTo(1);
                    assertThat(i.reward()).isEqualTo(written.get(i.id())).isIn(0.0, -1.0);
                }
                assertThat(s.interactions().stream().map(ArealSession.Interaction::reward).distinct()).hasSize(1);
                sessionCalls += s.interactions().size();
            }
            assertThat(written).hasSize(sessionCalls);
            // the Proposer and Checker samples 1 and 2 went to the other backend, not the trainer's session
            List<RecordedRequest> untrained = sim.recentGenerations().stream()
                    .filter(r -> r.path().equals("/v1/chat/completions")).toList();
            assertThat(untrained).hasSize(3 * 3);
            assertThat(sim.recentGenerations().stream().filter(r -> r.path().equals("/chat/completions"))
                    .allMatch(r -> !r.body().has("n"))).isTrue();

            // the records: the same questions, the solver's record reward is its session's ZTR
            Map<String, Double> solverReward = new HashMap<>();
            Map<String, String> solverPrompt = new HashMap<>();
            JsonlRows.forEach(out.resolve(OnlineRollout.RECORDS), (n, row) -> {
                if (row.get("role").asText().equals("solver")) {
                    solverReward.put(row.get("question_id").asText(), row.get("reward").asDouble());
                    solverPrompt.put(row.get("question_id").asText(), row.get("messages").get(0).get("content").asText());
                }
            });
            for (ArealSession s : sessions) {
                assertThat(s.interactions().getFirst().prompt()).isEqualTo(solverPrompt.get(s.taskId()));
                assertThat(s.interactions().getFirst().reward()).isEqualTo(solverReward.get(s.taskId()));
            }
            List<String> lines = Files.readAllLines(out.resolve(OnlineRollout.SESSIONS));
            assertThat(lines).hasSize(3).allMatch(l -> l.contains("\"interactions\":2,\"rewarded\":2,\"unrewarded\":0"));
            assertThat(o.summary().get("rewards").get("solver").get("count").asInt()).isEqualTo(3);
        }
    }

    @Test
    void c3poRewardsEveryProxySampleWithItsNodesCreditAndKeepsTheLlmOutOfTheSession() throws IOException {
        Path data = HotpotSample.write(dir.resolve("hotpot.json"), 3);
        Path out = dir.resolve("c3po");
        try (SimServer sim = sim();
             OpenAiCompatibleBackend plain = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("llm").build();
             LlmClient llm = LlmClient.builder(plain).concurrency(8).build()) {
            OnlineRollout.Spec spec = new OnlineRollout.Spec(OnlineRollout.Method.C3PO, "hotpotqa", data, 0, out, 2, "r",
                    Map.of(), RolloutSettings.of(RolloutSettings.Preset.PAPER), Rewards.byName("c3po-accuracy"));
            OnlineRollout.Outcome o = OnlineRollout.run(spec, areal(sim, ADMIN), policy(sim),
                    new MethodContext(llm, CallContext.of("t", "", "c3po"), "hotpotqa", false, Map.of()), s -> { });
            assertThat(o.failures()).isEmpty();
            assertThat(o.written()).isEqualTo(3);

            Map<String, Double> creditOfNode = new HashMap<>();
            JsonlRows.forEach(out.resolve(OnlineRollout.RECORDS), (n, row) ->
                    creditOfNode.put(row.get("question_id").asText() + "/" + row.get("node_id").asText(),
                            row.get("credit").asDouble()));
            Map<String, String> nodeOf = new HashMap<>();
            JsonlRows.forEach(out.resolve(OnlineRollout.REWARDS), (n, row) -> {
                assertThat(row.get("role").asText()).isIn("router", "filter", "decision");
                nodeOf.put(row.get("interaction_id").asText(), row.get("question_id").asText() + "/"
                        + row.get("node_id").asText());
            });
            int rewarded = 0;
            for (ArealSession s : sim.arealSessions()) {
                assertThat(s.ended()).isTrue();
                for (ArealSession.Interaction i : s.interactions()) {
                    // only the proxy's prompts reach the session (the LLM's roadmap and answer prompts do not)
                    assertThat(i.prompt()).startsWith("You are a helpful assistant.");
                    if (i.reward() != null) {
                        rewarded++;
                        assertThat(i.rewardsSet()).isEqualTo(1);
                        assertThat(i.reward()).isEqualTo(creditOfNode.get(nodeOf.get(i.id())));
                    }
                }
            }
            assertThat(rewarded).isEqualTo(nodeOf.size()).isGreaterThan(10);
            long unrewarded = sim.arealSessions().stream().flatMap(s -> s.interactions().stream())
                    .filter(i -> i.reward() == null).count();
            assertThat(o.summary().get("unrewarded_interactions").asLong()).isEqualTo(unrewarded);
            // the forced first level is written, not sampled: no interaction, so no reward for it
            JsonlRows.forEach(out.resolve(OnlineRollout.RECORDS), (n, row) -> {
                if (row.path("forced").asBoolean()) {
                    assertThat(nodeOf.values()).doesNotContain(row.get("question_id").asText() + "/"
                            + row.get("node_id").asText());
                }
            });
            assertThat(sim.recentGenerations().stream().filter(r -> r.path().equals("/v1/chat/completions"))).isNotEmpty();
        }
    }

    @Test
    void aKilledRolloutResumesWithEveryQuestionInOneSessionAndNoDuplicateRecords() throws IOException {
        Path data = ramdocs();
        Path out = dir.resolve("resume");
        try (SimServer sim = sim();
             OpenAiCompatibleBackend plain = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("base").build();
             LlmClient base = LlmClient.builder(plain).build()) {
            MethodContext ctx = new MethodContext(base, CallContext.of("t", "", "march"), "ramdocs", true, Map.of());
            assertThat(OnlineRollout.run(march(data, out, 2), areal(sim, ADMIN), policy(sim), ctx, s -> { }).written())
                    .isEqualTo(2);
            // a kill while the third question was written: its records and rewards out, its session line torn
            String third = "ramdocs-2";
            List<String> someRecords = Files.readAllLines(out.resolve(OnlineRollout.RECORDS));
            String orphan = someRecords.getFirst().replaceFirst("\"question_id\":\"[^\"]+\"", "\"question_id\":\"" + third + "\"");
            Files.writeString(out.resolve(OnlineRollout.RECORDS), orphan + "\n", StandardOpenOption.APPEND);
            Files.writeString(out.resolve(OnlineRollout.SESSIONS), "{\"id\":\"" + third + "\",\"sess", StandardOpenOption.APPEND);

            OnlineRollout.Outcome o = OnlineRollout.run(march(data, out, 0), areal(sim, ADMIN), policy(sim), ctx, s -> { });
            assertThat(o.skipped()).isEqualTo(2);
            assertThat(o.written()).isEqualTo(1);
            assertThat(sim.arealSessions()).hasSize(3);
        }
        List<String> ids = new ArrayList<>();
        JsonlRows.forEach(out.resolve(OnlineRollout.SESSIONS), (n, row) -> ids.add(row.get("id").asText()));
        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        Set<String> keys = new HashSet<>();
        JsonlRows.forEach(out.resolve(OnlineRollout.RECORDS), (n, row) ->
                assertThat(keys.add(row.get("question_id").asText() + "/" + row.get("node_id").asText())).isTrue());
        assertThat(keys).hasSize(6);
        assertThat(rewardsByInteraction(out)).hasSize(6);
    }

    @Test
    void aRefusedStartIsOneLinePerQuestionAndNothingIsWritten() throws IOException {
        Path out = dir.resolve("refused");
        try (SimServer sim = sim();
             OpenAiCompatibleBackend plain = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).build();
             LlmClient base = LlmClient.builder(plain).build()) {
            OnlineRollout.Outcome o = OnlineRollout.run(march(ramdocs(), out, 0), areal(sim, "wrong-admin-key"),
                    policy(sim), new MethodContext(base, CallContext.of("t", "", "march"), "ramdocs", true, Map.of()),
                    s -> { });
            assertThat(o.written()).isZero();
            assertThat(o.failures()).hasSize(3).allSatisfy(f -> assertThat(f)
                    .contains(sim.arealUrl() + "/rl/start_session: HTTP 401: Unauthorized (check VERACITY_AREAL_ADMIN_KEY")
                    .doesNotContain("\n"));
            assertThat(sim.arealSessions()).isEmpty();
            assertThat(Files.readAllLines(out.resolve(OnlineRollout.SESSIONS))).isEmpty();
        }
        assertThatThrownBy(() -> new ArealClient("localhost:8090", ApiKey.of("k-123456"), Duration.ofSeconds(1),
                Duration.ZERO)).hasMessageStartingWith("--areal must be the gateway's http(s) URL");
    }
}
