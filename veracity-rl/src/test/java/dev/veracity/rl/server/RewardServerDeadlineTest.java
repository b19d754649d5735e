package dev.veracity.rl.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.rl.reward.RewardSettings;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.rl.reward.RewardsTable;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.ManualClock;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MARCH behind the server when its model is slow or down: the answer still comes within the deadline, with the
 * fallback score flagged in the answer and in the server log; the late work is cancelled.
 */
class RewardServerDeadlineTest {

    private static final Map<String, Object> LABEL = Map.of("answers", List.of("-"),
            "documents", AppendixC.DOCUMENTS.stream().map(d -> d.text()).toList());

    private static String nativeBody() {
        return Http.json(Map.of("items", List.of(Map.of("question", AppendixC.QUESTION,
                "response", AppendixC.SOLVER_RESPONSE, "label", LABEL))));
    }

    @Test
    void aCheckerThatHangsGivesTheFallbackWithinTheDeadlineAndItsCallsAreCancelled() throws Exception {
        // The Proposer answers; the three Checker samples hang (the simulator's HANG fault, scripted) on a clock that
        // never moves: only the server's deadline can answer the request.
        ManualClock clock = new ManualClock();
        SimConfig sim = SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new))
                .faults(FaultPlan.script(FaultKind.NONE, FaultKind.HANG, FaultKind.HANG, FaultKind.HANG)
                        .withHangDuration(Duration.ofSeconds(30))).clock(clock).build();
        LogLines log = new LogLines();
        try (SimServer s = SimServer.start(sim);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(s.baseUrl()).model("sim-model").build();
             // exactly the calls of one reward: a hung call that kept its permit would block the next request
             LlmClient client = LlmClient.builder(backend).concurrency(3).timeout(Duration.ofSeconds(60))
                     .cache(ResponseCache.NONE, CacheMode.OFF).retry(RetrySettings.DEFAULT.withMaxAttempts(1)).build();
             RewardServer server = RewardServer.start(Rewards.byName("march-ztr",
                             RewardSettings.defaults().withLlm(client).withFallbackScore(-0.5)),
                     RewardServerSettings.defaults().withDeadline(Duration.ofMillis(1500)).withFallbackScore(-0.5), log)) {
            long t0 = System.nanoTime();
            Http.Reply r = Http.post(server.baseUrl() + "/v1/rewards", nativeBody());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(r.status()).isEqualTo(200);
            assertThat(ms).as("answered at the deadline (less the margin to write it), not before").isGreaterThanOrEqualTo(1000L);
            assertThat(clock.sleeping()).as("answered while the three Checker calls still hang")
                    .containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30));
            JsonNode result = r.json().get("results").get(0);
            assertThat(result.get("reward").asDouble()).isEqualTo(-0.5);
            assertThat(result.get("details").get("fallback").asBoolean()).isTrue();
            assertThat(result.get("details").get("fallback_reason").asText())
                    .isEqualTo("no reward within the server's deadline of 1500 ms");
            assertThat(log.warnings()).containsExactly("WARN march-ztr native item 1 of 1: fallback score -0.5: "
                    + "no reward within the server's deadline of 1500 ms");

            // The hung calls were cancelled (their sockets closed, their permits returned): the next request, with
            // the simulator answering again, gets its real reward in time (a late one would be the fallback).
            Await.until("the hung calls cancelled; " + client.counters(), () -> client.counters().inFlight() == 0);
            Http.Reply again = Http.post(server.baseUrl() + "/get_reward", Http.json(Map.of(
                    "query", List.of("Q: " + AppendixC.SOLVER_RESPONSE + "<|im_end|>"), "prompts", List.of("Q: "),
                    "labels", List.of(Http.json(LABEL)))));
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.json().get("rewards").get(0).asDouble()).isEqualTo(0.0);
            assertThat(again.json().get("extra_logs").get("fallback").get(0).asDouble()).isZero();
            assertThat(again.json().get("extra_logs").get("claims").get(0).asDouble()).isEqualTo(5.0);
            assertThat(Http.get(server.baseUrl() + "/metrics").body())
                    .contains("veracity_rewards_total{door=\"native\",reward=\"march-ztr\",status=\"fallback\"} 1")
                    .contains("veracity_rewards_total{door=\"openrlhf\",reward=\"march-ztr\",status=\"ok\"} 1");
        }
    }

    @Test
    void aModelThatIsDownGivesTheFallbackFlaggedInExtraLogsAndTheLog() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        LogLines log = new LogLines();
        try (OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl("http://127.0.0.1:" + port + "/v1")
                .model("m").build();
             LlmClient client = LlmClient.builder(backend).concurrency(4).cache(ResponseCache.NONE, CacheMode.OFF)
                     .retry(RetrySettings.DEFAULT.withMaxAttempts(1)).build();
             RewardServer server = RewardServer.start(Rewards.byName("march-err", RewardSettings.defaults().withLlm(client)),
                     RewardServerSettings.defaults(), log)) {
            Http.Reply r = Http.post(server.baseUrl() + "/get_reward", Http.json(Map.of(
                    "query", List.of("Q: It is 52%.", "Q: It is 59%."), "prompts", List.of("Q: ", "Q: "),
                    "labels", List.of(LABEL, Http.json(LABEL)))));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().get("rewards").toString()).isEqualTo("[0.0,0.0]");
            // the same keys as a scored answer (OpenRLHF concatenates them across samples), at their neutral values
            assertThat(r.json().get("extra_logs").toString()).isEqualTo(
                    "{\"claims\":[0.0,0.0],\"faults\":[0.0,0.0],\"calls\":[0.0,0.0],\"fallback\":[1.0,1.0]}");
            assertThat(log.warnings()).hasSize(2).allSatisfy(l -> assertThat(l)
                    .startsWith("WARN march-err openrlhf item ").contains("fallback score 0.0: model call failed: ")
                    .contains("CONNECTION"));
            Http.Reply slime = Http.post(server.baseUrl() + "/slime", Http.json(Map.of("prompt", "q", "response", "It is 52%.",
                    "label", LABEL)));
            assertThat(slime.json().get("fallback").asBoolean()).isTrue();
            assertThat(slime.json().get("fallback_reason").asText()).startsWith("model call failed: ");
        }
    }

    @Test
    void aMarchLabelWithoutDocumentsIsRefusedBeforeAnyCall() throws Exception {
        try (SimServer s = SimServer.start(SimConfig.builder().rules(RewardsTable.simRules().toArray(Rule[]::new)).build());
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(s.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(4).cache(ResponseCache.NONE, CacheMode.OFF).build();
             RewardServer server = RewardServer.start(Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(client)),
                     RewardServerSettings.defaults(), new LogLines())) {
            Http.Reply r = Http.post(server.baseUrl() + "/v1/rewards", Http.json(Map.of("items", List.of(
                    Map.of("response", AppendixC.SOLVER_RESPONSE, "label", LABEL),
                    Map.of("response", "It is 52%.", "label", "52%")))));
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.errorMessage()).isEqualTo("items[1]: MARCH's Checker answers from documents, and the label has no \"documents\"");
            assertThat(client.counters().calls()).isZero();
        }
    }
}
