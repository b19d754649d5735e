package dev.veracity.llm.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.Completion;
import dev.veracity.llm.FinishReason;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.TokenUsage;
import dev.veracity.llm.cache.CacheKey;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.store.Sqlite;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.trace.InMemoryTraces;
import dev.veracity.trace.TraceStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a call counts when the response cache answers it: the samples, tokens and model time its requests had when
 * they were made (a method used them either way), with the cache's share apart. A rerun from the cache must cost
 * what the first run cost, not zero.
 */
class CacheAccountingTest {

    @TempDir
    Path dir;

    /** The call's record, made through a client with this cache and backend. */
    private static CallRecord call(ScriptedBackend backend, SqliteResponseCache cache, LlmRequest request) {
        InMemoryTraces traces = new InMemoryTraces();
        LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).traces(traces).build()
                .call(CallContext.of("r", "q", "m"), request);
        return traces.all().getFirst();
    }

    @Test
    void aRequestOfNSamplesTheCacheAnswersCountsItsSamplesTokensAndLatencyAsTheLiveOneDid() {
        LlmRequest cotSc = LlmRequest.user("think step by step about the question").temperature(0.7).n(21).build();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            CallRecord live = call(ScriptedBackend.echo().latency(Duration.ofMillis(40)), cache, cotSc);
            CallRecord replay = call(ScriptedBackend.echo(), cache, cotSc);

            // one request, 21 samples: Reasoning Court's Table 4 counts 21
            assertThat(live.samples()).isEqualTo(21);
            assertThat(live.cachedSamples()).isZero();
            assertThat(replay.cacheHit()).isTrue();
            assertThat(replay.samples()).isEqualTo(21);
            assertThat(replay.cachedSamples()).isEqualTo(21);
            // nothing billed this time, and what the cache saved is what the request cost: its prompt once (each
            // cached sample carries the request's whole prompt), every sample's completion
            assertThat(replay.totalTokens()).isZero();
            assertThat(replay.cachedPromptTokens()).isEqualTo(live.promptTokens());
            assertThat(replay.cachedCompletionTokens()).isEqualTo(live.completionTokens());
            CallStats a = CallStats.ofQuestion(List.of(live));
            CallStats b = CallStats.ofQuestion(List.of(replay));
            assertThat(b.usedPromptTokens()).isEqualTo(a.usedPromptTokens()).isEqualTo(live.promptTokens());
            assertThat(b.usedCompletionTokens()).isEqualTo(a.usedCompletionTokens());
            assertThat(b.samples()).isEqualTo(21);
            assertThat(b.cachedSamples()).isEqualTo(21);
            // the model time: the live request's latency, stored with its samples
            // (the live call's own latency also covers writing its 21 samples to the cache)
            assertThat(replay.cachedLatencyMicros()).isGreaterThanOrEqualTo(40_000)
                    .isLessThanOrEqualTo(live.latencyMicros());
            assertThat(b.modelTime()).hasValueSatisfying(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ofMillis(40)));
            assertThat(replay.latencyMicros()).isLessThan(40_000);
        }
    }

    @Test
    void withoutNativeNEachCachedSampleCountsItsOwnPrompt() {
        LlmRequest req = LlmRequest.user("one prompt of several words").temperature(0.7).n(3).build();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            CallRecord live = call(new ScriptedBackend("no-n", false, r -> "a sample"), cache, req);
            CallRecord replay = call(new ScriptedBackend("no-n", false, r -> "never asked"), cache, req);
            // a fresh process whose backend has not learnt that the server refuses n > 1 (it says native n until a
            // 400 names n): the samples' own counts say they were made one request each
            CallRecord unlearnt = call(new ScriptedBackend("no-n", true, r -> "never asked"), cache, req);

            int prompt = ScriptedBackend.tokens(req.promptText());
            assertThat(live.promptTokens()).isEqualTo(3 * prompt); // three requests, three prompts
            assertThat(replay.cachedPromptTokens()).isEqualTo(3 * prompt);
            assertThat(unlearnt.cachedPromptTokens()).isEqualTo(3 * prompt);
            assertThat(replay.usedCompletionTokens()).isEqualTo(live.usedCompletionTokens());
        }
    }

    @Test
    void aCallPartlyAnsweredByTheCacheCountsOnePromptAndEverySample() {
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            ScriptedBackend backend = ScriptedBackend.echo();
            call(backend, cache, LlmRequest.user("q").temperature(1.0).n(2).build());
            CallRecord more = call(backend, cache, LlmRequest.user("q").temperature(1.0).n(5).build());

            assertThat(backend.requests().get(1).n()).isEqualTo(3);
            assertThat(more.samples()).isEqualTo(5);
            assertThat(more.cachedSamples()).isEqualTo(2);
            assertThat(more.cacheHit()).isFalse();
            // the request for the 3 missing samples paid the prompt; the cached two add their completions only
            assertThat(more.promptTokens()).isEqualTo(ScriptedBackend.tokens("q"));
            assertThat(more.cachedPromptTokens()).isZero();
            assertThat(more.usedCompletionTokens()).isEqualTo(5 * ScriptedBackend.tokens("echo:q#0"));
            assertThat(more.modelMicros()).isPresent();
        }
    }

    @Test
    void anEntryStoredWithoutALatencyLeavesTheModelTimeUnknownNotZero() {
        LlmRequest req = LlmRequest.user("q").build();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            ScriptedBackend backend = ScriptedBackend.echo();
            // as an entry written before latencies were kept
            cache.put(CacheKey.of(backend.id(), backend.defaultModel(), req, 0),
                    Completion.of(0, "old", FinishReason.STOP, TokenUsage.of(7, 3)));
            CallRecord replay = call(backend, cache, req);

            assertThat(replay.cacheHit()).isTrue();
            assertThat(replay.cachedLatencyMicros()).isEqualTo(-1);
            assertThat(replay.modelMicros()).isEmpty();
            assertThat(CallStats.ofQuestion(List.of(replay)).modelTime()).isEmpty();
            assertThat(replay.cachedPromptTokens()).isEqualTo(7);
            assertThat(replay.cachedCompletionTokens()).isEqualTo(3);
        }
    }

    @Test
    void aCacheFileWrittenBeforeLatenciesOpensAndReadsItsEntriesWithoutOne() throws Exception {
        Path file = dir.resolve("old.db");
        try (Connection db = Sqlite.open(file, false)) {
            Sqlite.execute(db, "CREATE TABLE completions (key TEXT PRIMARY KEY, text TEXT NOT NULL,"
                    + " finish_reason TEXT NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,"
                    + " exact INTEGER NOT NULL, logprobs TEXT, created_ms INTEGER NOT NULL, unparseable TEXT,"
                    + " token_ids TEXT)",
                    "INSERT INTO completions VALUES ('k', 'old text', 'STOP', 5, 2, 1, NULL, 0, NULL, NULL)");
        }
        try (SqliteResponseCache ro = SqliteResponseCache.openReadOnly(file)) {
            assertThat(ro.get("k")).hasValueSatisfying(e -> {
                assertThat(e.completion().text()).isEqualTo("old text");
                assertThat(e.latencyMicros()).isEmpty();
            });
        }
        try (SqliteResponseCache rw = SqliteResponseCache.open(file)) {
            assertThat(rw.get("k").orElseThrow().latencyMicros()).isEmpty();
            rw.put("k2", Completion.of(0, "new", FinishReason.STOP, TokenUsage.of(1, 1)), java.util.OptionalLong.of(1234));
            assertThat(rw.get("k2").orElseThrow().latencyMicros()).hasValue(1234);
        }
    }

    @Test
    void theTraceStoreKeepsTheSampleAndCacheFiguresAndReadsAnOldStore() throws Exception {
        Path file = dir.resolve("t.db");
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"));
             TraceStore store = TraceStore.open(file)) {
            LlmRequest req = LlmRequest.user("q").temperature(0.7).n(4).build();
            LlmClient.builder(ScriptedBackend.echo().latency(Duration.ofMillis(5))).cache(cache, CacheMode.READ_WRITE)
                    .traces(store).build().call(CallContext.of("r", "q1", "m"), req);
            LlmClient.builder(ScriptedBackend.echo()).cache(cache, CacheMode.READ_WRITE).traces(store).build()
                    .call(CallContext.of("r", "q2", "m"), req);
            CallRecord replay = store.calls("r", "q2").getFirst();
            assertThat(replay.samples()).isEqualTo(4);
            assertThat(replay.cachedSamples()).isEqualTo(4);
            assertThat(replay.cachedCompletionTokens()).isEqualTo(store.calls("r", "q1").getFirst().completionTokens());
            assertThat(replay.cachedLatencyMicros()).isGreaterThanOrEqualTo(5_000);
        }
        // a store of the first schema: no sample or cache columns
        Path old = dir.resolve("old-traces.db");
        try (Connection db = Sqlite.open(old, false)) {
            Sqlite.execute(db, "CREATE TABLE calls (call_id TEXT PRIMARY KEY, run_id TEXT NOT NULL,"
                    + " question_id TEXT NOT NULL, method TEXT NOT NULL, role TEXT NOT NULL, step INTEGER NOT NULL,"
                    + " backend TEXT, model TEXT, prompt TEXT, settings TEXT, outputs TEXT, finish_reasons TEXT,"
                    + " prompt_tokens INTEGER, completion_tokens INTEGER, cached_tokens INTEGER,"
                    + " submitted_us INTEGER, started_us INTEGER, ended_us INTEGER, cache_hit INTEGER,"
                    + " attempts INTEGER, retries INTEGER, error TEXT)",
                    "INSERT INTO calls VALUES ('c1', 'r', 'q', 'm', 'agent', 0, 'b', 'x', 'p', '{\"n\":3}',"
                            + " '[\"a\",\"b\",\"c\"]', '[]', 0, 0, 99, 10, 10, 20, 1, 0, 0, NULL)");
        }
        try (TraceStore store = TraceStore.open(old)) {
            CallRecord r = store.calls("r").getFirst();
            assertThat(r.samples()).isEqualTo(3);
            assertThat(r.cachedSamples()).isEqualTo(3);
            assertThat(r.modelMicros()).isEmpty(); // the cache's latency was never recorded: unknown, not 0
        }
    }
}
