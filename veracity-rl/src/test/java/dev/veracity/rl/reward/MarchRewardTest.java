package dev.veracity.rl.reward;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** MARCH's rewards against the simulator answering as the paper's model (Appendix C). */
class MarchRewardTest {

    private static final Label APPENDIX_C = Label.of("-").withDocuments(AppendixC.DOCUMENTS);

    private static SimConfig.Builder sim() {
        return SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new));
    }

    private static LlmClient client(OpenAiCompatibleBackend backend, int attempts) {
        return LlmClient.builder(backend).concurrency(16).cache(ResponseCache.NONE, CacheMode.OFF)
                .retry(RetrySettings.DEFAULT.withMaxAttempts(attempts)).build();
    }

    @Test
    void aCheckerThatCannotBeReachedGivesTheFallbackFlaggedWithTheReason() {
        // the Proposer's call succeeds; every Checker sample gets HTTP 500 and there is no retry
        try (SimServer s = SimServer.start(sim().faults(FaultPlan.script(FaultKind.NONE, FaultKind.SERVER_ERROR,
                FaultKind.SERVER_ERROR, FaultKind.SERVER_ERROR)).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(s.baseUrl()).model("sim-model").build();
             LlmClient client = client(backend, 1)) {
            Reward ztr = Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(client).withFallbackScore(-0.5));
            RewardResult r = ztr.score(RewardInput.of(AppendixC.QUESTION, AppendixC.SOLVER_RESPONSE, APPENDIX_C));
            assertThat(r.status()).isEqualTo(RewardResult.Status.FALLBACK);
            assertThat(r.score()).isEqualTo(-0.5);
            assertThat(r.reason()).startsWith("model call failed: ").contains("SERVER_ERROR");
            assertThat(RewardRows.details(r).get("fallback").asBoolean()).isTrue();
            assertThat(RewardRows.details(r).get("fallback_reason").asText()).isEqualTo(r.reason());
            // the server is back: the same input scores for real
            RewardResult again = ztr.score(RewardInput.of(AppendixC.QUESTION, AppendixC.SOLVER_RESPONSE, APPENDIX_C));
            assertThat(again.status()).isEqualTo(RewardResult.Status.OK);
            assertThat(again.score()).isEqualTo(0.0);
        }
    }

    @Test
    void aServerThatIsNotThereGivesTheFallbackForEveryInputOfABatch() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl("http://127.0.0.1:" + port + "/v1")
                .model("m").build();
             LlmClient client = client(backend, 1)) {
            Reward err = Rewards.byName("march-err", RewardSettings.defaults().withLlm(client));
            List<RewardResult> rs = err.scoreAll(Collections.nCopies(5,
                    RewardInput.of("q", "Hallucinations were reported in 52% of PDC patients.", APPENDIX_C)));
            assertThat(rs).hasSize(5).allSatisfy(r -> {
                assertThat(r.isFallback()).isTrue();
                assertThat(r.score()).isEqualTo(0.0);
                assertThat(r.reason()).contains("CONNECTION");
            });
        }
    }

    @Test
    void anInputWithoutDocumentsIsAProblemAndScoresAsAFallbackWithoutACall() {
        try (SimServer s = SimServer.start(sim().build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(s.baseUrl()).model("sim-model").build();
             LlmClient client = client(backend, 1)) {
            Reward ztr = Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(client));
            RewardInput noDocs = RewardInput.of("q", "It is 52%.", Label.of("52%"));
            assertThat(ztr.problem(noDocs)).get().asString().contains("no \"documents\"");
            RewardResult r = ztr.score(noDocs);
            assertThat(r.isFallback()).isTrue();
            assertThat(r.reason()).contains("no \"documents\"");
            assertThat(client.counters().calls()).isZero();
        }
    }

    @Test
    void marchSettingsShapeTheReward() {
        try (SimServer s = SimServer.start(sim().build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(s.baseUrl()).model("sim-model").build();
             LlmClient client = client(backend, 1)) {
            // the incentive scalar (Table 6) gives 1 on success; 5 Checker samples make 6 calls
            MarchSettings incentive = MarchSettings.fromOptions(Map.of("scalar", "incentive", "samples", "5"));
            Reward ztr = Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(client).withMarch(incentive));
            RewardResult r = ztr.score(RewardInput.of(AppendixC.QUESTION, AppendixC.SOLVER_RESPONSE, APPENDIX_C));
            assertThat(r.score()).isEqualTo(1.0);
            assertThat(r.details()).containsEntry("calls", 6).containsEntry("claims", 5);
        }
    }

    @Test
    void aBatchRunsConcurrently() {
        // 12 rewards of several calls each, 300 ms a call: run one after another, never two calls would be in flight;
        // run as a batch, every reward's first call is (the simulator's own count, not a wall-clock bound)
        try (SimServer s = SimServer.start(sim().latency(Duration.ofMillis(300), Duration.ZERO).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(s.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(64).cache(ResponseCache.NONE, CacheMode.OFF).build()) {
            Reward ztr = Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(client));
            List<RewardInput> inputs = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                inputs.add(RewardInput.of("q" + i, "Hallucinations were reported in " + (50 + i) + "% of PDC patients.",
                        APPENDIX_C));
            }
            List<RewardResult> rs = ztr.scoreAll(inputs);
            assertThat(rs).hasSize(12);
            // results stay in input order: only the 52% response matches the documents
            for (int i = 0; i < 12; i++) {
                assertThat(rs.get(i).score()).as("input " + i).isEqualTo(i == 2 ? 0.0 : -1.0);
            }
            assertThat(s.counters().peakInFlight()).as("calls in flight at once").isGreaterThanOrEqualTo(12);
        }
    }

    @Test
    void boundedParallelNeverRunsMoreThanItsLimit() {
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Integer> out = BoundedParallel.map(java.util.stream.IntStream.range(0, 40).boxed().toList(), 3, i -> {
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            now.decrementAndGet();
            return i * 2;
        });
        assertThat(out).hasSize(40).startsWith(0, 2, 4).endsWith(78);
        assertThat(most.get()).isEqualTo(3);
    }
}
