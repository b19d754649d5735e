package dev.veracity.llm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.concurrent.Parallel;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.testing.Await;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LlmClientTest {

    private static final RetrySettings FAST = new RetrySettings(4, Duration.ofMillis(5), Duration.ofMillis(20), 2.0,
            0.2, Duration.ofSeconds(5));

    @TempDir
    Path dir;

    @Test
    void neverRunsMoreAttemptsAtOnceThanTheLimit() {
        ScriptedBackend backend = ScriptedBackend.echo().latency(Duration.ofMillis(20));
        LlmClient client = LlmClient.builder(backend).concurrency(4).build();

        List<LlmResponse> out = Parallel.map(IntStream.range(0, 40).boxed().toList(),
                i -> client.call(LlmRequest.user("q" + i).build()));

        assertThat(out).hasSize(40);
        assertThat(backend.peakConcurrency()).isEqualTo(4);
        assertThat(client.counters().peakInFlight()).isEqualTo(4);
        assertThat(client.counters().attempts()).isEqualTo(40);
    }

    @Test
    void autoCutsItsLimitOnRefusalsForLoadAndRetriesThemToAnAnswer() {
        ScriptedBackend backend = ScriptedBackend.echo();
        LlmClient client = LlmClient.builder(backend).concurrency(ConcurrencyLimit.AUTO).retry(FAST).build();
        assertThat(client.concurrency().adaptive()).isTrue();
        client.call(LlmRequest.user("warm").build()); // a least round trip to compare with
        int before = client.counters().limit();
        backend.failNext(new LlmException(ErrorKind.SERVER_ERROR, "503", 503, null, null),
                new LlmException(ErrorKind.RATE_LIMITED, "429", 429, Duration.ofMillis(1), null),
                new LlmException(ErrorKind.SERVER_ERROR, "500", 500, null, null));

        LlmResponse r = client.call(LlmRequest.user("hello").build());

        assertThat(r.text()).isEqualTo("echo:hello#0");
        assertThat(client.counters().failures()).isZero();
        assertThat(client.counters().overloadDrops()).as("the 503 and the 429; a 500 says nothing of load").isEqualTo(2);
        assertThat(client.counters().limit()).isLessThan(before);
        assertThat(client.counters().lowestLimit()).isEqualTo(client.counters().limit());
        assertThat(client.counters().inFlight()).isZero();
    }

    @Test
    void aFixedLimitStaysPutThroughRefusals() {
        ScriptedBackend backend = ScriptedBackend.echo().failNext(
                new LlmException(ErrorKind.SERVER_ERROR, "503", 503, null, null));
        LlmClient client = LlmClient.builder(backend).concurrency(3).retry(FAST).build();
        client.call(LlmRequest.user("hello").build());
        assertThat(client.concurrency()).isEqualTo(ConcurrencyLimit.fixed(3));
        assertThat(client.counters().limit()).isEqualTo(3);
        assertThat(client.counters().overloadDrops()).isEqualTo(1);
    }

    @Test
    void retriesRetryableErrorsThenSucceeds() {
        ScriptedBackend backend = ScriptedBackend.echo().failNext(
                new LlmException(ErrorKind.RATE_LIMITED, "429", 429, null, null),
                new LlmException(ErrorKind.SERVER_ERROR, "500", 500, null, null),
                new LlmException(ErrorKind.CONNECTION, "reset"));
        InMemoryTraces traces = new InMemoryTraces();
        LlmClient client = LlmClient.builder(backend).retry(FAST).traces(traces).build();

        LlmResponse r = client.call(LlmRequest.user("hello").build());

        assertThat(r.text()).isEqualTo("echo:hello#0");
        assertThat(backend.requests()).hasSize(4);
        assertThat(client.counters().retries()).isEqualTo(3);
        CallRecord rec = traces.all().getFirst();
        assertThat(rec.attempts()).isEqualTo(4);
        assertThat(rec.retries()).isEqualTo(3);
        assertThat(rec.error()).isNull();
    }

    @Test
    void givesUpWithATypedErrorListingEveryAttempt() {
        ScriptedBackend backend = ScriptedBackend.echo();
        for (int i = 0; i < 4; i++) {
            backend.failNext(new LlmException(ErrorKind.SERVER_ERROR, "boom " + i, 503, null, null));
        }
        InMemoryTraces traces = new InMemoryTraces();
        LlmClient client = LlmClient.builder(backend).retry(FAST).traces(traces).build();

        assertThatThrownBy(() -> client.call(LlmRequest.user("hello").build()))
                .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.SERVER_ERROR);
                    assertThat(e.attempts()).hasSize(4);
                    assertThat(e.httpStatus()).hasValue(503);
                    assertThat(e.getMessage()).contains("4 attempts").contains("scripted").contains("What to do");
                });
        assertThat(backend.requests()).hasSize(4);
        assertThat(traces.all()).singleElement().satisfies(rec -> {
            assertThat(rec.error()).contains("SERVER_ERROR");
            assertThat(rec.outputs()).isEmpty();
        });
        assertThat(client.counters().failures()).isEqualTo(1);
    }

    @Test
    void doesNotRetryABadRequest() {
        ScriptedBackend backend = ScriptedBackend.echo()
                .failNext(new LlmException(ErrorKind.BAD_REQUEST, "unknown model", 404, null, null));
        LlmClient client = LlmClient.builder(backend).retry(FAST).build();

        assertThatThrownBy(() -> client.call(LlmRequest.user("x").build()))
                .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.BAD_REQUEST);
                    assertThat(e.attempts()).hasSize(1);
                });
        assertThat(backend.requests()).hasSize(1);
    }

    @Test
    void waitsAtLeastRetryAfter() {
        ScriptedBackend backend = ScriptedBackend.echo()
                .failNext(new LlmException(ErrorKind.RATE_LIMITED, "slow down", 429, Duration.ofMillis(300), null));
        LlmClient client = LlmClient.builder(backend).retry(FAST).build();

        long t0 = System.nanoTime();
        client.call(LlmRequest.user("x").build());
        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertThat(ms).isGreaterThanOrEqualTo(300);
    }

    @Test
    void aRerunFromTheCacheMakesNoBackendCallAndReturnsIdenticalOutputs() {
        ScriptedBackend backend = ScriptedBackend.echo();
        LlmRequest req = LlmRequest.user("what is 2+2?").temperature(0.7).n(3).build();
        List<String> first;
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("cache.db"))) {
            first = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build().call(req).texts();
        }
        assertThat(backend.requests()).hasSize(1);

        ScriptedBackend fresh = ScriptedBackend.echo();
        InMemoryTraces traces = new InMemoryTraces();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("cache.db"))) {
            LlmClient client = LlmClient.builder(fresh).cache(cache, CacheMode.READ_ONLY).traces(traces).build();
            LlmResponse rerun = client.call(req);
            assertThat(rerun.texts()).isEqualTo(first);
            assertThat(rerun.usage()).isEqualTo(dev.veracity.llm.TokenUsage.ZERO);
            assertThat(rerun.completions()).allSatisfy(c -> assertThat(c.usage().completionTokens()).isPositive());
            assertThat(client.counters().cacheHits()).isEqualTo(1);
        }
        assertThat(fresh.requests()).isEmpty();
        assertThat(traces.all().getFirst().cacheHit()).isTrue();
        assertThat(traces.all().getFirst().attempts()).isZero();
    }

    @Test
    void aResampledViewAsksForOtherSamplesAndSharesCacheAndCounters() {
        ScriptedBackend backend = ScriptedBackend.echo();
        LlmRequest greedy = LlmRequest.user("q").build();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("v.db"))) {
            LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).closeBackend(true).build();
            LlmClient view = client.resampled(2, 0.7);
            String original = client.call(greedy).first().text();
            LlmResponse again = view.call(greedy);
            assertThat(again.first().sampleIndex()).isEqualTo(2);
            assertThat(again.first().text()).isNotEqualTo(original);
            assertThat(backend.requests()).hasSize(2);
            assertThat(backend.requests().get(1).temperature()).isEqualTo(0.7);
            assertThat(backend.requests().get(1).firstSampleIndex()).isEqualTo(2);
            // a request that samples already keeps its temperature
            view.call(LlmRequest.user("q").temperature(0.3).build());
            assertThat(backend.requests().get(2).temperature()).isEqualTo(0.3);
            // the view's samples are cached under their own index: a rerun through a view asks nothing new
            assertThat(client.resampled(2, 0.7).call(greedy).first().text()).isEqualTo(again.first().text());
            assertThat(backend.requests()).hasSize(3);
            // one client underneath: calls counted together, and closing the view leaves the backend open
            assertThat(client.counters().calls()).isEqualTo(4);
            view.close();
            assertThat(backend.closed()).isFalse();
            assertThatThrownBy(() -> client.resampled(1, 0)).hasMessageContaining("temperature > 0");
        }
    }

    @Test
    void asksOnlyForTheSamplesTheCacheLacks() {
        ScriptedBackend backend = ScriptedBackend.echo();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
            client.call(LlmRequest.user("q").temperature(1.0).n(2).build());
            LlmResponse more = client.call(LlmRequest.user("q").temperature(1.0).n(5).build());

            assertThat(more.texts()).containsExactly("echo:q#0", "echo:q#1", "echo:q#2", "echo:q#3", "echo:q#4");
            assertThat(backend.requests()).hasSize(2);
            LlmRequest second = backend.requests().get(1);
            assertThat(second.n()).isEqualTo(3);
            assertThat(second.firstSampleIndex()).isEqualTo(2);
        }
    }

    @Test
    void differentSettingsOrSampleIndicesAreDifferentCacheEntries() {
        ScriptedBackend backend = ScriptedBackend.echo();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient client = LlmClient.builder(backend).cache(cache, CacheMode.READ_WRITE).build();
            client.call(LlmRequest.user("q").temperature(0.0).build());
            client.call(LlmRequest.user("q").temperature(0.5).build());
            client.call(LlmRequest.user("q").temperature(0.0).firstSampleIndex(1).build());
            client.call(LlmRequest.user("q").temperature(0.0).seed(3L).build());
            client.call(LlmRequest.user("q").temperature(0.0).build());
            assertThat(backend.requests()).hasSize(4);
            assertThat(cache.size()).isEqualTo(4);
        }
    }

    @Test
    void cacheOffAlwaysCallsAndReadOnlyNeverWrites() {
        ScriptedBackend backend = ScriptedBackend.echo();
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("c.db"))) {
            LlmClient off = LlmClient.builder(backend).cache(cache, CacheMode.OFF).build();
            off.call(LlmRequest.user("q").build());
            off.call(LlmRequest.user("q").build());
            assertThat(backend.requests()).hasSize(2);
            LlmClient ro = LlmClient.builder(backend).cache(cache, CacheMode.READ_ONLY).build();
            ro.call(LlmRequest.user("q").build());
            assertThat(cache.size()).isZero();
        }
    }

    @Test
    void withoutNativeNSplitsIntoConcurrentSingleSampleRequests() {
        // Each sample's request waits inside the backend until all four are there: served one after another, the
        // first would wait for ever (the guard fails it); served at once, all go on.
        CountDownLatch allFour = new CountDownLatch(4);
        ScriptedBackend backend = new ScriptedBackend("no-n", false, r -> {
            allFour.countDown();
            try {
                if (!allFour.await(Await.GUARD.toSeconds(), TimeUnit.SECONDS)) {
                    throw new AssertionError("the four samples' requests were not in progress at once");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            return "s";
        });
        LlmClient client = LlmClient.builder(backend).concurrency(8).build();

        LlmResponse r = client.call(LlmRequest.user("q").n(4).firstSampleIndex(10).build());

        assertThat(r.texts()).containsExactly("s#10", "s#11", "s#12", "s#13");
        assertThat(backend.requests()).extracting(LlmRequest::n).containsOnly(1);
        assertThat(backend.requests()).extracting(LlmRequest::firstSampleIndex).containsExactlyInAnyOrder(10, 11, 12, 13);
        assertThat(backend.peakConcurrency()).isEqualTo(4);
        assertThat(client.counters().attempts()).as("no attempt timed out and was retried").isEqualTo(4);
    }

    @Test
    void aFailedSampleOfASplitCallReportsOnlyItsOwnAttempts() {
        ScriptedBackend backend = new ScriptedBackend("no-n", false, r -> "s")
                .failNext(new LlmException(ErrorKind.BAD_REQUEST, "bad sample", 400, null, null));
        LlmClient client = LlmClient.builder(backend).retry(FAST).build();

        assertThatThrownBy(() -> client.call(LlmRequest.user("q").n(3).build()))
                .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.BAD_REQUEST);
                    assertThat(e.attempts()).singleElement().extracting(LlmException::getMessage).isEqualTo("bad sample");
                });
        assertThat(backend.requests()).hasSize(3);
        assertThat(client.counters().failures()).isEqualTo(1);
    }

    @Test
    void tracesCarryTheContextAndTheCost() {
        ScriptedBackend backend = ScriptedBackend.echo();
        InMemoryTraces traces = new InMemoryTraces();
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        CallContext ctx = CallContext.of("run1", "q7", "march").role("checker").step(2);

        client.call(ctx, LlmRequest.user("check this").n(2).seed(9L).build());

        CallRecord rec = traces.all().getFirst();
        assertThat(rec.context()).isEqualTo(ctx);
        assertThat(rec.prompt()).contains("check this").contains("\"role\":\"user\"");
        assertThat(rec.settings()).contains("\"n\":2").contains("\"seed\":9");
        assertThat(rec.outputs()).containsExactly("echo:check this#0", "echo:check this#1");
        assertThat(rec.promptTokens()).isPositive();
        assertThat(rec.completionTokens()).isPositive();
        assertThat(rec.endedMicros()).isGreaterThanOrEqualTo(rec.startedMicros());
        assertThat(rec.startedMicros()).isGreaterThanOrEqualTo(rec.submittedMicros());
    }

    @Test
    void aNonLlmExceptionFromABackendBecomesAnInternalError() {
        ScriptedBackend backend = new ScriptedBackend("buggy", true, r -> {
            throw new IllegalStateException("bug");
        });
        LlmClient client = LlmClient.builder(backend).retry(FAST).build();
        assertThatThrownBy(() -> client.call(LlmRequest.user("x").build()))
                .isInstanceOfSatisfying(LlmCallFailedException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.INTERNAL);
                    assertThat(e.getMessage()).contains("IllegalStateException: bug");
                });
        assertThat(backend.requests()).hasSize(1);
    }

    @Test
    void tracedPromptsAndSettingsAreTheSameTextAsJacksonsOwnRendering() throws Exception {
        // the traced prompt is JSON written by our pooled mapper; it must stay the text JsonNode.toString() gave,
        // which earlier traces and their keys hold
        LlmRequest r = LlmRequest.chat(dev.veracity.llm.ChatMessage.system("Answer \"briefly\".\n\tTabs, \u00e9, \u4e2d, \ud83d\ude00, </script>"),
                        dev.veracity.llm.ChatMessage.user("a\u0001b\\c"))
                .temperature(0.7).topP(0.9).maxTokens(64).stop("\nObservation", "</answer>").seed(7L).extra("min_p", 0.05)
                .build();
        com.fasterxml.jackson.databind.ObjectMapper plain = new com.fasterxml.jackson.databind.ObjectMapper();
        assertThat(LlmClient.promptOf(r)).isEqualTo(plain.readTree(LlmClient.promptOf(r)).toString())
                .contains("\\u0001", "\\\"briefly\\\"");
        assertThat(LlmClient.settingsOf(r)).isEqualTo(plain.readTree(LlmClient.settingsOf(r)).toString())
                .contains("\"min_p\"");
    }

    /**
     * A backend that notes each prompt it serves, in order, into {@code served}, and holds the call of a prompt that
     * {@code holds} until {@code release} opens: with one slot, the calls asked meanwhile wait for it.
     */
    private static ScriptedBackend servingInOrder(List<String> served, CountDownLatch release,
                                                  java.util.function.Predicate<String> holds) {
        return ScriptedBackend.perSample((r, i) -> {
            served.add(r.promptText());
            if (holds.test(r.promptText())) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return "ok";
        });
    }

    @Test
    void aCallWaitingForASlotIsServedInItsQuestionsOrderNotInArrivalOrder() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        List<String> served = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScriptedBackend backend = servingInOrder(served, first, p -> p.equals("q0"));
        try (LlmClient client = LlmClient.builder(backend).concurrency(1).build()) {
            Thread q0 = Thread.ofVirtual().start(() -> client.call(CallContext.of("r", "q0", "m").order(0),
                    LlmRequest.user("q0").build()));
            Await.until("q0 holding the slot", () -> served.size() == 1);
            Thread q7 = Thread.ofVirtual().start(() -> client.call(CallContext.of("r", "q7", "m").order(7),
                    LlmRequest.user("q7").build()));
            Await.until("q7 waiting", () -> q7.getState() == Thread.State.WAITING);
            Thread q3 = Thread.ofVirtual().start(() -> client.call(CallContext.of("r", "q3", "m").order(3),
                    LlmRequest.user("q3").build()));
            Await.until("q3 waiting", () -> q3.getState() == Thread.State.WAITING);
            first.countDown();
            for (Thread t : List.of(q0, q7, q3)) {
                t.join();
            }
        }
        // q7 asked before q3, but q3 is the earlier question
        assertThat(served).containsExactly("q0", "q3", "q7");
    }

    @Test
    void aRunThatRanksItsCallsIsServedByItsRanksUntilItsHandleIsClosedAndOtherRunsKeepTheirPlaces() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> served = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScriptedBackend backend = servingInOrder(served, release, p -> p.startsWith("hold"));
        try (LlmClient client = LlmClient.builder(backend).concurrency(1).build()) {
            // run "r" ranks a call by its role: "late" after "soon", whatever the question's place
            CallRanking byRole = c -> c.role().equals("soon") ? 1 : 100;
            LlmClient view = client.resampled(1, 0.7);
            try (LlmClient.Ranked ranked = client.rankRun("r", byRole);
                 LlmClient.Ranked again = view.rankRun("r", byRole)) { // the same ranking through a view: a no-op
                assertThatThrownBy(() -> client.rankRun("r", c -> 0)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("run r already ranks");
                Thread hold = Thread.ofVirtual().start(() -> client.call(CallContext.of("x", "h", "m"),
                        LlmRequest.user("hold").build()));
                Await.until("the slot held", () -> served.size() == 1);
                List<Thread> waiting = new ArrayList<>();
                for (String[] c : List.of(new String[] {"r", "late", "0"}, new String[] {"r", "soon", "9"},
                        new String[] {"other", "late", "5"})) {
                    Thread t = Thread.ofVirtual().start(() -> client.call(
                            CallContext.of(c[0], "q", "m").role(c[1]).order(Long.parseLong(c[2])),
                            LlmRequest.user(c[0] + ":" + c[1]).build()));
                    Await.until(c[0] + ":" + c[1] + " waiting", () -> t.getState() == Thread.State.WAITING);
                    waiting.add(t);
                }
                release.countDown();
                hold.join();
                for (Thread t : waiting) {
                    t.join();
                }
            }
            // run r's "soon" (rank 1) before the other run's call at its place 5, then r's "late" (rank 100)
            assertThat(served).containsExactly("hold", "r:soon", "other:late", "r:late");
            // closed, the run's ranking is gone: another may take its place (it would be refused while one is in place)
            client.rankRun("r", c -> 0).close();
        }
    }
}
