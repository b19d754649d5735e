package dev.veracity.llm.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmBackendContractTest;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.ManualClock;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared backend contract for a LangChain4j ChatModel — LangChain4j's own OpenAiChatModel, a real client
 * library, talking HTTP to the simulator — plus what is particular to this backend.
 */
class LangChain4jBackendTest extends LlmBackendContractTest {

    private static final List<String> ANSWERS = List.of(
            "Apples and pears grow in orchards; sample {{sample}} notes that both ripen in late summer and autumn.",
            "Pears are softer than apples, sample {{sample}} says, and both keep for months in a cool cellar.");
    private static SimServer sim;
    private static LangChain4jBackend backend;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", ANSWERS)).build());
        backend = LangChain4jBackend.of(model(sim, Duration.ofSeconds(30)));
    }

    @AfterAll
    static void stop() {
        backend.close();
        sim.close();
    }

    static OpenAiChatModel model(SimServer server, Duration timeout) {
        return OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("no-key").modelName("sim-model")
                .maxRetries(0).timeout(timeout).build();
    }

    @Override
    protected LlmBackend backend() {
        return backend;
    }

    @Test
    void takesItsModelNameFromTheChatModel() {
        assertThat(backend.defaultModel()).isEqualTo("sim-model");
        assertThat(backend.id()).isEqualTo("langchain4j:open_ai");
    }

    @Test
    void theClientAsksForNSamplesAsConcurrentCalls() throws Exception {
        // The simulator's 150 ms pass when the test moves its clock: the four calls all wait on it at once first.
        ManualClock clock = new ManualClock();
        try (SimServer slow = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", ANSWERS))
                .latency(LatencyModel.ofMillis(150, 0)).clock(clock).build());
             LangChain4jBackend b = LangChain4jBackend.of(model(slow, Duration.ofSeconds(60)))) {
            LlmClient client = LlmClient.builder(b).concurrency(8).build();

            CompletableFuture<LlmResponse> call = CompletableFuture.supplyAsync(() ->
                    client.call(LlmRequest.user("fruit?").temperature(1.0).n(4).build()));
            assertThat(clock.awaitSleeping(4, Await.GUARD)).as("four calls at once: %s", clock).isTrue();
            clock.advance(Duration.ofMillis(150));
            LlmResponse r = call.get();

            assertThat(r.completions()).hasSize(4);
            assertThat(slow.counters().totalRequests()).isEqualTo(4);
            assertThat(slow.counters().peakGenerating()).isEqualTo(4);
        }
    }

    @Test
    void providerErrorsBecomeTypedRetryableErrors() {
        try (SimServer faulty = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", ANSWERS))
                .retryAfter(Duration.ofMillis(10))
                .faults(FaultPlan.script(FaultKind.RATE_LIMIT, FaultKind.SERVER_ERROR)).build());
             LangChain4jBackend b = LangChain4jBackend.of(model(faulty, Duration.ofSeconds(10)))) {
            LlmClient client = LlmClient.builder(b).retry(new RetrySettings(3, Duration.ofMillis(5),
                    Duration.ofMillis(20), 2, 0.1, Duration.ofSeconds(1))).build();

            LlmResponse r = client.call(LlmRequest.user("fruit?").build());

            assertThat(r.text()).isNotEmpty();
            assertThat(client.counters().retries()).isEqualTo(2);
        }
    }

    @Test
    void aHungServerTimesOutWithATypedError() {
        try (SimServer hung = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", ANSWERS))
                .faults(FaultPlan.script(FaultKind.HANG, FaultKind.HANG).withHangDuration(Duration.ofSeconds(5))).build());
             LangChain4jBackend b = LangChain4jBackend.of(model(hung, Duration.ofSeconds(30)))) {
            LlmClient client = LlmClient.builder(b).retry(RetrySettings.NONE).timeout(Duration.ofMillis(300)).build();

            assertThatThrownBy(() -> client.call(LlmRequest.user("fruit?").build()))
                    .isInstanceOfSatisfying(LlmCallFailedException.class,
                            e -> assertThat(e.kind()).isEqualTo(ErrorKind.TIMEOUT));
        }
    }
}
