package dev.veracity.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.TraceStore;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over real HTTP (client -> openai-java -> simulator): the cache keeps only good responses, marked entries are asked
 * again, and a lone surrogate the server sends is one repaired string on every path.
 */
class OpenAiCacheHygieneTest {

    private static final RetrySettings QUICK = new RetrySettings(3, Duration.ofMillis(5), Duration.ofMillis(20), 2.0,
            0.2, Duration.ofSeconds(5));
    private static final String ANSWER = "The capital of France is Paris, on the Seine, since the tenth century.";

    @TempDir
    Path dir;

    private static SimServer sim(Consumer<SimConfig.Builder> setup) {
        SimConfig.Builder b = SimConfig.builder().rules(Rule.of("(?i)surrogate", "a\ud800b"), Rule.of("", ANSWER));
        setup.accept(b);
        return SimServer.start(b.build());
    }

    private static OpenAiCompatibleBackend backend(SimServer sim) {
        return OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
    }

    private LlmClient client(OpenAiCompatibleBackend backend, SqliteResponseCache cache) {
        return LlmClient.builder(backend).retry(QUICK).timeout(Duration.ofSeconds(5))
                .cache(cache, CacheMode.READ_WRITE).build();
    }

    @Test
    void aLoneSurrogateFromTheServerIsOneRepairedTextLiveCachedAndTraced() throws Exception {
        Path cacheFile = dir.resolve("cache.db");
        LlmRequest req = LlmRequest.user("say a surrogate").temperature(0.0).build();
        try (SimServer sim = sim(b -> { });
             OpenAiCompatibleBackend backend = backend(sim)) {
            String live;
            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile);
                 TraceStore traces = TraceStore.open(dir.resolve("traces.db"))) {
                LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).traces(traces).build();
                live = client.call(CallContext.of("run", "q", "march"), req).text();
                Path export = dir.resolve("traces.jsonl");
                try (Writer out = Files.newBufferedWriter(export)) {
                    traces.exportJsonl("run", out);
                }
                assertThat(new ObjectMapper().readTree(Files.readString(export)).get("outputs").get(0).asText())
                        .isEqualTo("a\uFFFDb");
            }
            assertThat(live).isEqualTo("a\uFFFDb");

            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile)) {
                LlmClient rerun = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
                assertThat(rerun.call(req).text()).isEqualTo(live);
                assertThat(rerun.counters().cacheHits()).isEqualTo(1);
            }
            assertThat(sim.counters().totalRequests()).isEqualTo(1);
        }
    }

    @Test
    void anEmptyAnswerIsRetriedAndOnlyTheGoodOneIsCached() {
        LlmRequest req = LlmRequest.user("capital of France?").temperature(0.0).build();
        try (SimServer sim = sim(b -> b.faults(FaultPlan.script(FaultKind.EMPTY_CONTENT)));
             OpenAiCompatibleBackend backend = backend(sim);
             SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = client(backend, cache);

            assertThat(client.call(req).text()).isEqualTo(ANSWER);
            assertThat(sim.counters().totalRequests()).isEqualTo(2);
            assertThat(client.counters().emptyResponses()).isEqualTo(1);

            assertThat(client.call(req).text()).isEqualTo(ANSWER);
            assertThat(sim.counters().totalRequests()).isEqualTo(2);
            assertThat(cache.size()).isEqualTo(1);
        }
    }

    @Test
    void aServerThatOnlyAnswersEmptyFailsTypedAndNothingIsCached() {
        try (SimServer sim = sim(b -> b.faults(FaultPlan.none().withRate(FaultKind.EMPTY_CONTENT, 1.0)));
             OpenAiCompatibleBackend backend = backend(sim);
             SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = client(backend, cache);

            assertThatThrownBy(() -> client.call(LlmRequest.user("capital of France?").build()))
                    .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.EMPTY_RESPONSE);
                        assertThat(e.attempts()).hasSize(3);
                    });
            assertThat(sim.counters().totalRequests()).isEqualTo(3);
            assertThat(cache.size()).isZero();
        }
    }

    @Test
    void aBodyThatDoesNotParseIsNeverCached() {
        LlmRequest req = LlmRequest.user("capital of France?").temperature(0.0).build();
        try (SimServer sim = sim(b -> b.faults(FaultPlan.script(FaultKind.MALFORMED_JSON, FaultKind.MALFORMED_JSON,
                FaultKind.MALFORMED_JSON, FaultKind.MALFORMED_JSON)));
             OpenAiCompatibleBackend backend = backend(sim);
             SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = client(backend, cache);

            assertThatThrownBy(() -> client.call(req)).isInstanceOfSatisfying(LlmCallFailedException.class,
                    e -> assertThat(e.kind()).isEqualTo(ErrorKind.MALFORMED_RESPONSE));
            assertThat(cache.size()).isZero();

            // One more malformed body, then a good one: the retry's good answer is what gets cached.
            assertThat(client.call(req).text()).isEqualTo(ANSWER);
            assertThat(sim.counters().totalRequests()).isEqualTo(5);
            assertThat(cache.size()).isEqualTo(1);
        }
    }

    @Test
    void anAnswerTheServerCutsShortIsAskedAgainAndOnlyTheWholeAnswerIsCached() {
        Path cacheFile = dir.resolve("c.db");
        LlmRequest req = LlmRequest.user("capital of France?").temperature(0.0).maxTokens(256).build();
        // The server cuts its first answer short (finish_reason length, fewer tokens than the 256 asked); after
        // that it is healthy. The client asks again with the same request and caches only the whole answer.
        try (SimServer sim = sim(b -> b.faults(FaultPlan.script(FaultKind.TRUNCATED)));
             OpenAiCompatibleBackend backend = backend(sim)) {
            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile)) {
                LlmClient client = client(backend, cache);
                LlmResponse r = client.call(req);

                assertThat(r.text()).isEqualTo(ANSWER);
                assertThat(r.first().finishReason()).isEqualTo(FinishReason.STOP);
                assertThat(sim.counters().totalRequests()).isEqualTo(2);
                assertThat(client.counters().cutShort()).isEqualTo(1);
                assertThat(client.counters().uncachedIncomplete()).isZero();
                assertThat(cache.size()).isEqualTo(1);
            }
            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile)) {
                LlmResponse rerun = client(backend, cache).call(req);
                assertThat(rerun.text()).isEqualTo(ANSWER);
                assertThat(sim.counters().totalRequests()).isEqualTo(2);
            }
        }
    }

    @Test
    void aLengthStopThatUsedTheWholeBudgetIsCached() {
        LlmRequest req = LlmRequest.user("capital of France?").temperature(0.0).maxTokens(4).build();
        try (SimServer sim = sim(b -> { });
             OpenAiCompatibleBackend backend = backend(sim);
             SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = client(backend, cache);
            LlmResponse r = client.call(req);

            assertThat(r.first().finishReason()).isEqualTo(FinishReason.LENGTH);
            assertThat(r.first().usage().completionTokens()).isEqualTo(4);
            assertThat(cache.size()).isEqualTo(1);
            assertThat(client.call(req).text()).isEqualTo(r.text());
            assertThat(sim.counters().totalRequests()).isEqualTo(1);
        }
    }

    @Test
    void aMarkedSampleIsAskedAgainUnlessReplayIsAsked() {
        Path cacheFile = dir.resolve("c.db");
        LlmRequest req = LlmRequest.user("capital of France?").temperature(0.0).build();
        try (SimServer sim = sim(b -> { });
             OpenAiCompatibleBackend backend = backend(sim)) {
            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile)) {
                LlmClient client = client(backend, cache);
                LlmResponse first = client.call(req);
                client.markUnparseable(req, first.first(), "no answer line");
                assertThat(sim.counters().totalRequests()).isEqualTo(1);

                assertThat(client.call(req).text()).isEqualTo(ANSWER);
                assertThat(sim.counters().totalRequests()).isEqualTo(2);       // asked again
                assertThat(client.call(req).text()).isEqualTo(ANSWER);
                assertThat(sim.counters().totalRequests()).isEqualTo(2);       // the new sample replaced the mark

                client.markUnparseable(req, first.first(), "still no answer line");
            }
            try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile)) {
                LlmClient replay = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE)
                        .replayUnparseable(true).build();
                assertThat(replay.call(req).text()).isEqualTo(ANSWER);
                assertThat(replay.counters().cacheHits()).isEqualTo(1);
            }
            assertThat(sim.counters().totalRequests()).isEqualTo(2);
        }
    }
}
