package dev.veracity.llm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.Completion;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.TokenUsage;
import dev.veracity.llm.cache.CacheKey;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.store.Sqlite;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.TraceStore;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the client lets into the cache, what it replays, and that model text is the same string on every path. */
class CacheHygieneTest {

    private static final RetrySettings FAST = new RetrySettings(4, Duration.ofMillis(2), Duration.ofMillis(10), 2.0,
            0.2, Duration.ofSeconds(5));

    @TempDir
    Path dir;

    private static Completion completion(String text, FinishReason reason, int tokens) {
        return Completion.of(0, text, reason, TokenUsage.of(3, tokens));
    }

    /** A backend that must not be asked: for reading what the cache holds through a client. */
    private static ScriptedBackend unreachable() {
        return ScriptedBackend.completions((r, i) -> {
            throw new AssertionError("the backend was asked for " + r.promptText());
        });
    }

    private String cachedText(Path file, LlmRequest request) {
        try (SqliteResponseCache cache = SqliteResponseCache.openReadOnly(file)) {
            return LlmClient.builder(unreachable()).cache(cache, CacheMode.READ_ONLY).build().call(request).text();
        }
    }

    // ---- Unicode --------------------------------------------------------------------------------------------

    @Test
    void aLoneSurrogateIsTheSameRepairedTextLiveFromTheCacheAndInTheTrace() throws Exception {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "a\ud800b");
        LlmRequest req = LlmRequest.user("say it").build();
        Path cacheFile = dir.resolve("cache.db");
        String live;
        try (SqliteResponseCache cache = SqliteResponseCache.open(cacheFile);
             TraceStore traces = TraceStore.open(dir.resolve("traces.db"))) {
            LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).traces(traces).build();
            live = client.call(CallContext.of("run", "q1", "march"), req).text();

            Path export = dir.resolve("traces.jsonl");
            try (Writer out = Files.newBufferedWriter(export)) { // a strict UTF-8 encoder
                assertThat(traces.exportJsonl("run", out)).isEqualTo(1);
            }
            JsonNode line = new ObjectMapper().readTree(Files.readString(export, StandardCharsets.UTF_8));
            assertThat(line.get("outputs").get(0).asText()).isEqualTo("a\uFFFDb");
            assertThat(traces.calls("run").getFirst().outputs()).containsExactly("a\uFFFDb");
        }
        assertThat(live).isEqualTo("a\uFFFDb");
        assertThat(cachedText(cacheFile, req)).isEqualTo(live);
    }

    @Test
    void aLoneSurrogateInAPromptIsStoredRepairedAndDoesNotBreakTheTraceExport() throws Exception {
        try (TraceStore traces = TraceStore.open(dir.resolve("t.db"))) {
            LlmClient client = LlmClient.builder(ScriptedBackend.echo()).traces(traces).build();
            client.call(CallContext.of("run", "bad", "m"), LlmRequest.user("dataset text \udc00 here").build());
            client.call(CallContext.of("run", "good", "m"), LlmRequest.user("clean").build());

            Path export = dir.resolve("t.jsonl");
            try (Writer out = Files.newBufferedWriter(export)) {
                assertThat(traces.exportJsonl("run", out)).isEqualTo(2);
            }
            assertThat(Files.readAllLines(export)).hasSize(2);
            assertThat(traces.calls("run", "bad").getFirst().prompt()).contains("dataset text \uFFFD here");
            assertThat(TraceStore.toJson(traces.calls("run", "bad").getFirst()).get("prompt").asText())
                    .contains("\uFFFD").doesNotContain("?");
        }
    }

    // ---- empty content ----------------------------------------------------------------------------------------

    @Test
    void anEmptyTextIsRetriedAndOnlyTheGoodTextIsCached() {
        AtomicInteger asked = new AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> switch (asked.getAndIncrement()) {
            case 0 -> completion("", FinishReason.STOP, 0);
            case 1 -> completion(" \n\t", FinishReason.STOP, 1);
            default -> completion("the answer", FinishReason.STOP, 2);
        });
        LlmRequest req = LlmRequest.user("q").build();
        Path file = dir.resolve("c.db");
        try (SqliteResponseCache cache = SqliteResponseCache.open(file)) {
            LlmClient client = LlmClient.builder(backend).retry(FAST).cache(cache, CacheMode.READ_WRITE).build();

            assertThat(client.call(req).text()).isEqualTo("the answer");
            assertThat(backend.requests()).hasSize(3);
            assertThat(client.counters().emptyResponses()).isEqualTo(2);
            assertThat(client.counters().retries()).isEqualTo(2);
            assertThat(cache.size()).isEqualTo(1);
        }
        assertThat(cachedText(file, req)).isEqualTo("the answer");
    }

    @Test
    void anAlwaysEmptyAnswerFailsTypedAfterTheLastAttemptAndCachesNothing() {
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> completion("", FinishReason.STOP, 0));
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = LlmClient.builder(backend).retry(FAST).cache(cache, CacheMode.READ_WRITE).build();

            assertThatThrownBy(() -> client.call(LlmRequest.user("q").build()))
                    .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.EMPTY_RESPONSE);
                        assertThat(e.attempts()).hasSize(4);
                        assertThat(e.getMessage()).contains("empty text").contains("What to do");
                    });
            assertThat(cache.size()).isZero();
        }
        assertThat(ErrorKind.EMPTY_RESPONSE.retryable()).isTrue();
    }

    /**
     * Issue 25 point 6: a request whose prompt can rightly be answered with nothing (a ReAct step that writes its stop
     * sequence first) gets the empty text back at once, not five retries and a failed call; it is still never cached,
     * and a request that does not accept empty text still fails as before.
     */
    @Test
    void anAcceptedEmptyAnswerIsReturnedWithoutRetriesAndNeverCached() {
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> completion(i == 1 ? "sample one" : " \n",
                FinishReason.STOP, 0));
        Path file = dir.resolve("c.db");
        LlmRequest step = LlmRequest.user("q").stop("\nObservation 1:").temperature(0.0).acceptEmpty(true).build();
        try (SqliteResponseCache cache = SqliteResponseCache.open(file)) {
            LlmClient client = LlmClient.builder(backend).retry(FAST).cache(cache, CacheMode.READ_WRITE).build();
            assertThat(client.call(step).text()).isEqualTo(" \n");
            assertThat(backend.requests()).hasSize(1);
            assertThat(client.counters().retries()).isZero();
            assertThat(client.counters().failures()).isZero();
            assertThat(cache.size()).isZero();
            // n samples: the empty one comes back beside the others, and only the others are stored
            assertThat(client.call(step.toBuilder().n(2).build()).texts()).containsExactly(" \n", "sample one");
            assertThat(cache.size()).isEqualTo(1);
            // asked again: the empty sample is asked of the model again, the other comes from the cache
            assertThat(client.call(step.toBuilder().n(2).build()).texts()).containsExactly(" \n", "sample one");
            assertThat(backend.requests()).hasSize(3);
            assertThat(backend.requests().getLast().firstSampleIndex()).isZero();
            assertThat(backend.requests().getLast().n()).isEqualTo(1);
            // the flag is no sampling setting: not in the cache key
            assertThat(CacheKey.canonical("b", "m", step, 0)).isEqualTo(CacheKey.canonical("b", "m",
                    step.toBuilder().acceptEmpty(false).build(), 0));

            assertThatThrownBy(() -> client.call(step.toBuilder().acceptEmpty(false).build()))
                    .isInstanceOfSatisfying(LlmCallFailedException.class,
                            e -> assertThat(e.kind()).isEqualTo(ErrorKind.EMPTY_RESPONSE));
            assertThat(backend.requests()).hasSize(3 + 4);
        }
    }

    @Test
    void oneEmptySampleOfNFailsTheAttemptAndAToolCallWithoutTextIsNotEmpty() {
        AtomicInteger asked = new AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> i == 1 && asked.getAndIncrement() == 0
                ? completion("", FinishReason.LENGTH, 0) : completion("s" + i, FinishReason.STOP, 1));
        LlmClient client = LlmClient.builder(backend).retry(FAST).build();
        assertThat(client.call(LlmRequest.user("q").n(3).build()).texts()).containsExactly("s0", "s1", "s2");
        assertThat(backend.requests()).hasSize(2);

        ScriptedBackend tools = ScriptedBackend.completions((r, i) -> completion("", FinishReason.TOOL_CALLS, 4));
        assertThat(LlmClient.builder(tools).retry(FAST).build().call(LlmRequest.user("q").build()).text()).isEmpty();
        assertThat(tools.requests()).hasSize(1);

        // a content filter's empty answer is the provider's final word: returned, not retried
        ScriptedBackend filtered = ScriptedBackend.completions((r, i) -> completion("", FinishReason.CONTENT_FILTER, 0));
        assertThat(LlmClient.builder(filtered).retry(FAST).build().call(LlmRequest.user("q").build()).text()).isEmpty();
        assertThat(filtered.requests()).hasSize(1);
    }

    // ---- incomplete responses ---------------------------------------------------------------------------------

    @Test
    void aCompletionWithoutAFinishReasonIsReturnedButNotCached() {
        AtomicInteger asked = new AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> asked.getAndIncrement() == 0
                ? completion("The capital of Fr", FinishReason.UNKNOWN, 4)
                : completion("The capital of France is Paris.", FinishReason.STOP, 7));
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
            LlmRequest req = LlmRequest.user("capital?").build();

            assertThat(client.call(req).text()).isEqualTo("The capital of Fr");
            assertThat(cache.size()).isZero();
            assertThat(client.counters().uncachedIncomplete()).isEqualTo(1);

            assertThat(client.call(req).text()).isEqualTo("The capital of France is Paris.");
            assertThat(client.call(req).text()).isEqualTo("The capital of France is Paris.");
            assertThat(backend.requests()).hasSize(2);
        }
    }

    @Test
    void aLengthStopAtTheWholeBudgetOrWithoutOneIsCachedAndAnEstimatedCutIsReturnedUncached() {
        // The prompt says how many tokens the "server" produced before it stopped with finish reason length.
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> completion("cut",
                FinishReason.LENGTH, Integer.parseInt(r.promptText())));
        ScriptedBackend estimated = ScriptedBackend.completions((r, i) -> Completion.of(0, "cut", FinishReason.LENGTH,
                new TokenUsage(3, Integer.parseInt(r.promptText()), false)));
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = LlmClient.builder(backend).retry(FAST).cache(cache, CacheMode.READ_WRITE).build();

            assertThat(client.call(LlmRequest.user("10").maxTokens(10).build()).first().truncated()).isTrue();
            assertThat(cache.size()).isEqualTo(1);                       // used the whole budget: the caller's limit
            client.call(LlmRequest.user("7").build());                    // no budget asked: the server's limit
            assertThat(cache.size()).isEqualTo(2);
            assertThat(backend.requests()).hasSize(2);

            // a server without a usage block: the estimate cannot tell a cut from a complete sample
            LlmClient noUsage = LlmClient.builder(estimated).retry(FAST).cache(cache, CacheMode.READ_WRITE).build();
            assertThat(noUsage.call(LlmRequest.user("5").maxTokens(10).build()).text()).isEqualTo("cut");
            assertThat(estimated.requests()).hasSize(1);
            assertThat(noUsage.counters().uncachedIncomplete()).isEqualTo(1);
            assertThat(cache.size()).isEqualTo(2);
        }
    }

    @Test
    void aSampleTheServerCutBelowMaxTokensIsAskedAgainAndOnlyTheWholeAnswerIsCached() {
        AtomicInteger asked = new AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> asked.getAndIncrement() == 0
                ? completion("The answer is \\boxed{Par", FinishReason.LENGTH, 5)
                : completion("The answer is \\boxed{Paris}.", FinishReason.STOP, 8));
        LlmRequest req = LlmRequest.user("capital?").maxTokens(10).build();
        Path file = dir.resolve("c.db");
        try (SqliteResponseCache cache = SqliteResponseCache.open(file)) {
            LlmClient client = LlmClient.builder(backend).retry(FAST).cache(cache, CacheMode.READ_WRITE).build();

            assertThat(client.call(req).text()).isEqualTo("The answer is \\boxed{Paris}.");
            assertThat(backend.requests()).hasSize(2);
            assertThat(backend.requests()).allSatisfy(r -> assertThat(r.maxTokens()).isEqualTo(10));
            assertThat(client.counters().cutShort()).isEqualTo(1);
            assertThat(client.counters().retries()).isEqualTo(1);
            assertThat(cache.size()).isEqualTo(1);
        }
        assertThat(cachedText(file, req)).isEqualTo("The answer is \\boxed{Paris}.");
    }

    @Test
    void aServerThatAlwaysCutsBelowMaxTokensFailsTypedAndCachesNothing() {
        ScriptedBackend backend = ScriptedBackend.completions((r, i) -> completion("half an answ", FinishReason.LENGTH, 5));
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = LlmClient.builder(backend).retry(FAST).cache(cache, CacheMode.READ_WRITE).build();

            assertThatThrownBy(() -> client.call(LlmRequest.user("q").maxTokens(10).build()))
                    .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.TRUNCATED);
                        assertThat(e.attempts()).hasSize(4);
                        assertThat(e.getMessage()).contains("at 5 tokens, below the 10 asked").contains("What to do");
                    });
            assertThat(cache.size()).isZero();
        }
        assertThat(ErrorKind.TRUNCATED.retryable()).isTrue();
    }

    @Test
    void withApportionedUsageALengthSampleIsCachedOnlyWhenTheTotalCoversEveryBudget() {
        LlmRequest ask = LlmRequest.user("q").n(2).maxTokens(10).build();
        Completion a = Completion.of(0, "x", FinishReason.LENGTH, new TokenUsage(3, 11, false));
        Completion b = Completion.of(1, "y", FinishReason.LENGTH, new TokenUsage(3, 9, false));
        Completion stop = Completion.of(1, "z", FinishReason.STOP, new TokenUsage(3, 2, false));

        assertThat(LlmClient.complete(ask, new LlmResponse("m", java.util.List.of(a, b), new TokenUsage(3, 20, false)), b))
                .isTrue();
        assertThat(LlmClient.complete(ask, new LlmResponse("m", java.util.List.of(a, b), new TokenUsage(3, 15, false)), a))
                .isFalse();
        assertThat(LlmClient.complete(ask, new LlmResponse("m", java.util.List.of(a, stop), new TokenUsage(3, 13, false)), a))
                .isTrue();
    }

    // ---- unparseable marks ------------------------------------------------------------------------------------

    @Test
    void aMarkedEntryIsAskedAgainAndTheNewSampleReplacesItClearingTheMark() {
        AtomicInteger asked = new AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "answer " + asked.getAndIncrement());
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
            LlmRequest req = LlmRequest.user("q").temperature(0.7).n(2).build();
            LlmResponse first = client.call(req);
            assertThat(first.texts()).containsExactly("answer 0", "answer 1");

            client.markUnparseable(req, first.completions().get(1), "no verdict line");
            String key = CacheKey.of(backend.id(), backend.defaultModel(), req, 1);
            assertThat(cache.get(key)).hasValueSatisfying(e ->
                    assertThat(e.unparseable()).hasValue("no verdict line"));

            LlmResponse second = client.call(req);
            assertThat(second.texts()).containsExactly("answer 0", "answer 2");
            assertThat(backend.requests()).hasSize(2);
            assertThat(backend.requests().get(1).firstSampleIndex()).isEqualTo(1);
            assertThat(backend.requests().get(1).n()).isEqualTo(1);
            assertThat(cache.get(key)).hasValueSatisfying(e -> assertThat(e.markedUnparseable()).isFalse());
            assertThat(client.counters().unparseableSkipped()).isEqualTo(1);

            assertThat(client.call(req).texts()).containsExactly("answer 0", "answer 2");
            assertThat(backend.requests()).hasSize(2);
        }
    }

    @Test
    void replayUnparseableServesAMarkedEntryFromTheCache() {
        ScriptedBackend backend = ScriptedBackend.echo();
        Path file = dir.resolve("c.db");
        LlmRequest req = LlmRequest.user("q").build();
        try (SqliteResponseCache cache = SqliteResponseCache.open(file)) {
            LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
            client.markUnparseable(req, client.call(req).first(), "unparseable");
        }
        ScriptedBackend fresh = ScriptedBackend.echo();
        try (SqliteResponseCache cache = SqliteResponseCache.open(file)) {
            LlmClient replay = LlmClient.builder(fresh).cache(cache, CacheMode.READ_WRITE).replayUnparseable(true).build();
            assertThat(replay.call(req).text()).isEqualTo("echo:q#0");
            assertThat(replay.counters().cacheHits()).isEqualTo(1);
        }
        assertThat(fresh.requests()).isEmpty();
    }

    @Test
    void markingWithoutAWritableCacheDoesNothing() {
        ScriptedBackend backend = ScriptedBackend.echo();
        LlmRequest req = LlmRequest.user("q").build();
        LlmClient none = LlmClient.builder(backend).build();
        none.markUnparseable(req, none.call(req).first(), "x");
        ResponseCache.NONE.markUnparseable("k", "x");
        assertThat(ResponseCache.NONE.get("k")).isEmpty();

        Path file = dir.resolve("c.db");
        try (SqliteResponseCache cache = SqliteResponseCache.open(file)) {
            LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build().call(req);
        }
        try (SqliteResponseCache cache = SqliteResponseCache.openReadOnly(file)) {
            LlmClient ro = LlmClient.builder(unreachable()).cache(cache, CacheMode.READ_ONLY).build();
            ro.markUnparseable(req, ro.call(req).first(), "x");
            assertThat(ro.call(req).text()).isEqualTo("echo:q#0");
        }
    }

    @Test
    void aCacheFileFromBeforeTheMarksKeepsWorkingAndGetsTheColumn() throws Exception {
        Path file = dir.resolve("old.db");
        try (Connection db = Sqlite.open(file, false)) {
            Sqlite.execute(db, "CREATE TABLE completions (key TEXT PRIMARY KEY, text TEXT NOT NULL,"
                            + " finish_reason TEXT NOT NULL, prompt_tokens INTEGER NOT NULL,"
                            + " completion_tokens INTEGER NOT NULL, exact INTEGER NOT NULL, logprobs TEXT,"
                            + " created_ms INTEGER NOT NULL)",
                    "INSERT INTO completions VALUES ('k', 'old text', 'STOP', 1, 2, 1, NULL, 0)");
        }
        try (SqliteResponseCache ro = SqliteResponseCache.openReadOnly(file)) {
            assertThat(ro.get("k")).hasValueSatisfying(e -> {
                assertThat(e.completion().text()).isEqualTo("old text");
                assertThat(e.markedUnparseable()).isFalse();
            });
        }
        try (SqliteResponseCache rw = SqliteResponseCache.open(file)) {
            assertThat(rw.get("k")).hasValueSatisfying(e -> assertThat(e.markedUnparseable()).isFalse());
            rw.markUnparseable("k", "bad");
            assertThat(rw.get("k")).hasValueSatisfying(e -> assertThat(e.unparseable()).hasValue("bad"));
        }
        try (SqliteResponseCache again = SqliteResponseCache.open(file)) {
            assertThat(again.get("k").orElseThrow().unparseable()).hasValue("bad");
        }
    }
}
