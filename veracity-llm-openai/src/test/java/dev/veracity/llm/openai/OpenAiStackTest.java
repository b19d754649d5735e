package dev.veracity.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.concurrent.Parallel;
import dev.veracity.config.ApiKey;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.sim.Endpoint;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.RecordedRequest;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.InMemoryTraces;
import dev.veracity.trace.TraceStore;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole call stack over real HTTP: client (limits, retries, cache, traces) -> openai-java SDK -> simulator.
 * Each test starts its own simulator, so counters belong to the test.
 */
class OpenAiStackTest {

    private static final RetrySettings QUICK = new RetrySettings(5, Duration.ofMillis(10), Duration.ofMillis(50), 2.0,
            0.2, Duration.ofSeconds(5));

    @TempDir
    Path dir;

    private static SimServer sim(Consumer<SimConfig.Builder> setup) {
        SimConfig.Builder b = SimConfig.builder().rules(
                Rule.of("capital of (\\w+)", List.of("The capital of {{1}} is on the map (sample {{sample}}).",
                        "I believe {{1}} has a capital city; sample {{sample}}.")),
                Rule.of("(?s).*", "Default answer for sample {{sample}}."));
        setup.accept(b);
        return SimServer.start(b.build());
    }

    private static OpenAiCompatibleBackend backend(SimServer sim) {
        return OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
    }

    @Test
    void peakInFlightAtTheServerNeverExceedsTheClientLimit() {
        try (SimServer sim = sim(b -> b.latency(LatencyModel.ofMillis(15, 0)));
             OpenAiCompatibleBackend backend = backend(sim)) {
            LlmClient client = LlmClient.builder(backend).concurrency(5).build();

            Parallel.map(IntStream.range(0, 60).boxed().toList(),
                    i -> client.call(LlmRequest.user("capital of France? " + i).build()));

            assertThat(sim.counters().totalRequests()).isEqualTo(60);
            assertThat(sim.counters().peakInFlight()).isLessThanOrEqualTo(5).isGreaterThanOrEqualTo(4);
            assertThat(client.counters().peakInFlight()).isLessThanOrEqualTo(5);
        }
    }

    @Test
    void rateLimitsServerErrorsResetsAndHangsAreRetriedUntilSuccess() {
        try (SimServer sim = sim(b -> b.retryAfter(Duration.ofMillis(300)).faults(FaultPlan.script(
                FaultKind.RATE_LIMIT, FaultKind.SERVER_ERROR, FaultKind.RESET, FaultKind.HANG)
                .withHangDuration(Duration.ofSeconds(5))));
             OpenAiCompatibleBackend backend = backend(sim)) {
            InMemoryTraces traces = new InMemoryTraces();
            LlmClient client = LlmClient.builder(backend).retry(QUICK).timeout(Duration.ofMillis(500))
                    .traces(traces).build();

            long t0 = System.nanoTime();
            LlmResponse r = client.call(LlmRequest.user("capital of Peru?").temperature(0.0).build());
            long ms = (System.nanoTime() - t0) / 1_000_000;

            assertThat(r.text()).contains("Peru");
            for (FaultKind k : List.of(FaultKind.RATE_LIMIT, FaultKind.SERVER_ERROR, FaultKind.RESET, FaultKind.HANG)) {
                assertThat(sim.counters().faultsInjected(k)).as(k.name()).isEqualTo(1);
            }
            // OkHttp (inside the SDK) transparently re-sends a request whose connection closed before any
            // response, once, so the reset may cost no retry of ours: 3 or 4.
            assertThat(traces.all().getFirst().retries()).isBetween(3, 4);
            // Retry-After (300 ms) was honoured and the hang cost one timeout (500 ms).
            assertThat(ms).isGreaterThanOrEqualTo(800);
        }
    }

    private static void assertGivesUp(FaultKind fault, ErrorKind expected, Integer status) {
        try (SimServer sim = sim(b -> b.retryAfter(Duration.ofMillis(20)).faults(FaultPlan.script(
                fault, fault, fault, fault, fault, fault, fault, fault).withHangDuration(Duration.ofSeconds(5))));
             OpenAiCompatibleBackend backend = backend(sim)) {
            LlmClient client = LlmClient.builder(backend).retry(QUICK.withMaxAttempts(3))
                    .timeout(Duration.ofMillis(300)).build();

            assertThatThrownBy(() -> client.call(LlmRequest.user("capital of Chile?").build()))
                    .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                        assertThat(e.kind()).as(e.getMessage()).isEqualTo(expected);
                        assertThat(e.attempts()).hasSize(3);
                        if (status != null) {
                            assertThat(e.httpStatus()).hasValue(status);
                        }
                        assertThat(e.getMessage()).contains("3 attempts").contains(sim.baseUrl())
                                .contains("What to do");
                    });
            assertThat(client.counters().attempts()).isEqualTo(3);
            assertThat(sim.counters().faultsInjected(fault)).isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void persistentRateLimitsEndInATypedError() {
        assertGivesUp(FaultKind.RATE_LIMIT, ErrorKind.RATE_LIMITED, 429);
    }

    @Test
    void persistentServerErrorsEndInATypedError() {
        assertGivesUp(FaultKind.SERVER_ERROR, ErrorKind.SERVER_ERROR, 500);
    }

    @Test
    void persistentResetsEndInATypedError() {
        assertGivesUp(FaultKind.RESET, ErrorKind.CONNECTION, null);
    }

    @Test
    void persistentHangsEndInATypedError() {
        assertGivesUp(FaultKind.HANG, ErrorKind.TIMEOUT, null);
    }

    @Test
    void malformedJsonEndsInATypedError() {
        assertGivesUp(FaultKind.MALFORMED_JSON, ErrorKind.MALFORMED_RESPONSE, null);
    }

    @Test
    void aTruncatedOutputIsAnAnswerAndAnEmptyOneIsRetried() {
        try (SimServer sim = sim(b -> b.faults(FaultPlan.script(FaultKind.TRUNCATED, FaultKind.EMPTY_CONTENT)));
             OpenAiCompatibleBackend backend = backend(sim)) {
            LlmClient client = LlmClient.builder(backend).retry(QUICK).build();

            LlmResponse cut = client.call(LlmRequest.user("capital of Spain?").build());
            LlmResponse retried = client.call(LlmRequest.user("capital of Spain?").build());

            assertThat(cut.first().finishReason()).isEqualTo(FinishReason.LENGTH);
            assertThat(cut.first().truncated()).isTrue();
            assertThat(retried.text()).contains("Spain");
            assertThat(client.counters().retries()).isEqualTo(1);
            assertThat(client.counters().emptyResponses()).isEqualTo(1);
        }
    }

    @Test
    void persistentEmptyContentEndsInATypedError() {
        assertGivesUp(FaultKind.EMPTY_CONTENT, ErrorKind.EMPTY_RESPONSE, null);
    }

    @Test
    void aRerunFromTheCacheMakesZeroHttpCallsAndReturnsIdenticalOutputs() {
        Path cacheFile = dir.resolve("cache.db");
        List<LlmRequest> requests = List.of(
                LlmRequest.user("capital of Italy?").temperature(0.0).build(),
                LlmRequest.user("capital of Italy?").temperature(0.8).n(4).build(),
                LlmRequest.completion("capital of Japan").seed(5L).build());
        try (SimServer sim = sim(b -> { });
             OpenAiCompatibleBackend backend = backend(sim)) {
            List<List<String>> first;
            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile)) {
                LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
                first = requests.stream().map(r -> client.call(r).texts()).toList();
            }
            long before = sim.counters().totalRequests();
            assertThat(before).isEqualTo(3);

            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile)) {
                LlmClient rerun = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
                List<List<String>> second = requests.stream().map(r -> rerun.call(r).texts()).toList();
                assertThat(second).isEqualTo(first);
                assertThat(rerun.counters().cacheHits()).isEqualTo(3);
            }
            assertThat(sim.counters().totalRequests()).isEqualTo(before);
        }
    }

    @Test
    void nSamplesComeFromOneRequestAndDiffer() {
        try (SimServer sim = sim(b -> { });
             OpenAiCompatibleBackend backend = backend(sim)) {
            LlmClient client = LlmClient.builder(backend).build();

            LlmResponse r = client.call(LlmRequest.user("capital of Kenya?").temperature(1.0).n(4).build());

            assertThat(r.completions()).hasSize(4);
            assertThat(r.texts()).doesNotHaveDuplicates();
            assertThat(sim.counters().totalRequests()).isEqualTo(1);
            assertThat(sim.recentRequests().getLast().body().get("n").asInt()).isEqualTo(4);
            assertThat(r.usage().completionTokens())
                    .isEqualTo(r.completions().stream().mapToInt(c -> c.usage().completionTokens()).sum());
        }
    }

    @Test
    void aServerThatRefusesNStillGivesNSamples() {
        try (SimServer sim = sim(b -> b.refuseN(true));
             OpenAiCompatibleBackend backend = backend(sim)) {
            LlmClient client = LlmClient.builder(backend).build();

            LlmResponse r = client.call(LlmRequest.user("capital of Ghana?").temperature(1.0).n(3).build());
            assertThat(r.completions()).hasSize(3);
            assertThat(backend.refusesN("sim-model")).isTrue();
            assertThat(backend.capabilities().nativeN()).isFalse();

            long before = sim.counters().totalRequests();
            LlmResponse again = client.call(LlmRequest.user("capital of Mali?").temperature(1.0).n(2).build());
            assertThat(again.completions()).hasSize(2);
            assertThat(sim.counters().totalRequests() - before).isEqualTo(2);
        }
    }

    @Test
    void vendorExtrasAndSamplingSettingsReachTheServer() {
        try (SimServer sim = sim(b -> { });
             OpenAiCompatibleBackend backend = backend(sim)) {
            LlmClient client = LlmClient.builder(backend).build();

            client.call(LlmRequest.user("capital of Chad?").temperature(0.6).topP(0.9).topK(40).maxTokens(64)
                    .stop("\nObservation 1:").seed(11L).extra("min_p", 0.05).extra("repetition_penalty", 1.1).build());
            client.call(LlmRequest.completion("capital of Niger").topK(5).logprobs(2).build());

            List<RecordedRequest> seen = sim.recentRequests();
            RecordedRequest chat = seen.get(0);
            assertThat(chat.path()).isEqualTo("/v1/chat/completions");
            assertThat(chat.body().get("top_k").asInt()).isEqualTo(40);
            assertThat(chat.body().get("min_p").asDouble()).isEqualTo(0.05);
            assertThat(chat.body().get("repetition_penalty").asDouble()).isEqualTo(1.1);
            assertThat(chat.body().get("temperature").asDouble()).isEqualTo(0.6);
            assertThat(chat.body().get("top_p").asDouble()).isEqualTo(0.9);
            assertThat(chat.body().get("seed").asLong()).isEqualTo(11);
            assertThat(chat.body().get("max_tokens").asInt()).isEqualTo(64);
            assertThat(chat.body().get("stop").get(0).asText()).isEqualTo("\nObservation 1:");
            RecordedRequest text = seen.get(1);
            assertThat(text.path()).isEqualTo("/v1/completions");
            assertThat(text.body().get("prompt").asText()).isEqualTo("capital of Niger");
            assertThat(text.body().get("top_k").asInt()).isEqualTo(5);
            assertThat(sim.counters().requests(Endpoint.COMPLETIONS)).isEqualTo(1);
        }
    }

    @Test
    void aWrongApiKeyIsATypedErrorThatNeverShowsTheKey() throws Exception {
        String wrong = "sk-wrong-" + "abcdef0123456789";
        try (SimServer sim = sim(b -> b.requiredApiKey("right-key-000000"));
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl())
                     .apiKey(ApiKey.of(wrong)).build();
             TraceStore traces = TraceStore.open(dir.resolve("t.db"))) {
            LlmClient client = LlmClient.builder(backend).retry(QUICK).traces(traces).build();

            assertThatThrownBy(() -> client.call(CallContext.of("run", "q", "m"), LlmRequest.user("hi").build()))
                    .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.AUTHENTICATION);
                        assertThat(e.attempts()).hasSize(1);
                        assertThat(e.getMessage()).doesNotContain(wrong).contains("VERACITY_API_KEY");
                    });
            StringWriter out = new StringWriter();
            traces.exportJsonl("run", out);
            assertThat(out.toString()).contains("AUTHENTICATION").doesNotContain(wrong);
            assertThat(backend.id()).doesNotContain(wrong);
        }
    }
}
