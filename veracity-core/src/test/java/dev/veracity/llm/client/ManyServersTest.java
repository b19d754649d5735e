package dev.veracity.llm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.BackendCapabilities;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client over several model servers: the choice by fewest outstanding attempts, retries on another server, ejection
 * after failures in a row and the probe that brings a server back, the cache shared across servers, the trace's
 * endpoint, and a client of one server as it always was. Servers are scripted backends that a test takes down.
 */
class ManyServersTest {

    private static final RetrySettings FAST = new RetrySettings(5, Duration.ofMillis(1), Duration.ofMillis(2), 2.0,
            0.2, Duration.ofSeconds(1));
    /** Taken out for longer than any test runs: what is out stays out. */
    private static final Ejection STAYS_OUT = new Ejection(3, Duration.ofHours(1));
    /** Probed at once: the next choice after an ejection lets a probe through. */
    private static final Ejection PROBED_AT_ONCE = new Ejection(3, Duration.ZERO);

    @TempDir
    Path dir;

    /** A scripted server a test can take down: while down, every attempt is refused like a closed port. */
    static final class Server implements LlmBackend {
        final ScriptedBackend answers;
        final AtomicInteger attempts = new AtomicInteger();
        volatile boolean down;
        /** While set, each attempt waits for it, then fails as refused if {@link #down}. */
        volatile java.util.concurrent.CountDownLatch hold;

        Server(String name) {
            this.answers = new ScriptedBackend("openai:http://" + name + "/v1", true, r -> "echo:" + r.promptText());
        }

        @Override
        public String id() {
            return answers.id();
        }

        @Override
        public String defaultModel() {
            return answers.defaultModel();
        }

        @Override
        public BackendCapabilities capabilities() {
            return answers.capabilities();
        }

        @Override
        public LlmResponse generate(LlmRequest request, Duration timeout) {
            attempts.incrementAndGet();
            java.util.concurrent.CountDownLatch h = hold;
            if (h != null) {
                try {
                    h.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (down) {
                throw new LlmException(ErrorKind.CONNECTION, "connection to " + id() + " refused");
            }
            return answers.generate(request, timeout);
        }
    }

    private static List<Server> servers(String... names) {
        return java.util.Arrays.stream(names).map(Server::new).toList();
    }

    private static EndpointPool pool(List<Server> servers) {
        return new EndpointPool(servers, ConcurrencyLimit.fixed(4), STAYS_OUT);
    }

    @Test
    void eachAttemptGoesToTheServerWithTheFewestOutstandingTiesInTurn() {
        List<Server> s = servers("a", "b", "c");
        EndpointPool pool = pool(s);

        Endpoint first = pool.choose(Set.of());
        Endpoint second = pool.choose(Set.of());
        Endpoint third = pool.choose(Set.of());
        // all idle: the turn counter spreads them, one each
        assertThat(List.of(first.index, second.index, third.index)).containsExactlyInAnyOrder(0, 1, 2);
        Endpoint fourth = pool.choose(Set.of()); // all at one: the next in turn, the first again
        assertThat(fourth.index).isEqualTo(first.index);
        // the second finishes: it has the fewest now, whoever's turn it is
        second.answered();
        second.left();
        for (int i = 0; i < 3; i++) {
            Endpoint e = pool.choose(Set.of());
            assertThat(e.index).isEqualTo(second.index);
            e.answered();
            e.left();
        }
        // the server this request failed on comes last, even with the fewest outstanding
        assertThat(pool.choose(Set.of(second)).index).isNotEqualTo(second.index);
    }

    @Test
    void sequentialCallsAreSharedRoundRobin() {
        List<Server> s = servers("a", "b", "c");
        LlmClient client = LlmClient.builder(s).concurrency(2).build();

        for (int i = 0; i < 9; i++) {
            client.call(LlmRequest.user("q" + i).build());
        }

        assertThat(s).allSatisfy(x -> assertThat(x.attempts.get()).isEqualTo(3));
        assertThat(client.endpoints()).extracting(EndpointStats::answered).containsExactly(3L, 3L, 3L);
        assertThat(client.counters().limit()).isEqualTo(6); // 2 per server
    }

    @Test
    void aFailedAttemptIsRetriedOnAnotherServer() {
        List<Server> s = servers("a", "b", "c");
        LlmClient client = LlmClient.builder(s).retry(FAST).ejection(STAYS_OUT).build();
        s.get(0).answers.failNext(new LlmException(ErrorKind.SERVER_ERROR, "500", 500, null, null));

        client.call(LlmRequest.user("q").build()); // the first choice (all idle: the first in turn) fails

        assertThat(client.counters().attempts()).isEqualTo(2);
        assertThat(s.get(0).attempts.get()).isEqualTo(1);
        assertThat(s.get(1).attempts.get() + s.get(2).attempts.get()).isEqualTo(1);
        assertThat(client.endpoints().get(0).failures()).isEqualTo(1);
    }

    @Test
    void aServerThatTurnsCallsAwayWith503IsBusyNotDown() {
        List<Server> s = servers("a", "b");
        LlmClient client = LlmClient.builder(s).retry(FAST).ejection(STAYS_OUT).build();
        for (int i = 0; i < 6; i++) {
            s.get(0).answers.failNext(new LlmException(ErrorKind.SERVER_ERROR, "503 queue full", 503, null, null));
        }
        for (int i = 0; i < 12; i++) {
            client.call(LlmRequest.user("q" + i).build());
        }
        assertThat(client.counters().failures()).isZero();
        EndpointStats a = client.endpoints().get(0);
        assertThat(a.ejections()).isZero(); // six 503s, three of them in a row at least: still in
        assertThat(a.out()).isFalse();
        assertThat(a.failures()).isZero();
    }

    @Test
    void aServerThatFailsRepeatedlyIsTakenOutAndItsCallsGoElsewhere() {
        List<Server> s = servers("a", "b", "c");
        InMemoryTraces traces = new InMemoryTraces();
        LlmClient client = LlmClient.builder(s).retry(FAST).ejection(STAYS_OUT).traces(traces).build();
        s.get(1).down = true;

        for (int i = 0; i < 30; i++) {
            client.call(LlmRequest.user("q" + i).build());
        }

        assertThat(client.counters().failures()).isZero();
        assertThat(s.get(1).attempts.get()).isEqualTo(3); // three failures in a row, then out
        EndpointStats b = client.endpoints().get(1);
        assertThat(b.failures()).isEqualTo(3);
        assertThat(b.ejections()).isEqualTo(1);
        assertThat(b.out()).isTrue();
        assertThat(b.answered()).isZero();
        assertThat(traces.all()).extracting(CallRecord::endpoint)
                .containsOnly("openai:http://a/v1", "openai:http://c/v1");
        assertThat(client.endpoints().get(0).answered() + client.endpoints().get(2).answered()).isEqualTo(30);
    }

    @Test
    void anOutServerIsProbedAndComesBackWhenItAnswers() {
        List<Server> s = servers("a", "b", "c");
        LlmClient client = LlmClient.builder(s).retry(FAST).ejection(PROBED_AT_ONCE).build();
        s.get(0).down = true;
        for (int i = 0; client.endpoints().get(0).ejections() == 0; i++) {
            assertThat(i).as("calls before the ejection").isLessThan(30);
            client.call(LlmRequest.user("down" + i).build());
        }
        int failedAttempts = s.get(0).attempts.get();
        // while it is down, each probe (a real call) fails and takes it out again; nothing is lost
        for (int i = 0; i < 6; i++) {
            client.call(LlmRequest.user("still" + i).build());
        }
        assertThat(s.get(0).attempts.get()).isGreaterThan(failedAttempts);
        assertThat(client.endpoints().get(0).returns()).isZero();
        // taken out once for this outage: the failed probes do not count as more ejections
        assertThat(client.endpoints().get(0).ejections()).isEqualTo(1);

        s.get(0).down = false;
        for (int i = 0; i < 9; i++) {
            client.call(LlmRequest.user("up" + i).build());
        }

        EndpointStats a = client.endpoints().get(0);
        assertThat(a.returns()).isEqualTo(1);
        assertThat(a.out()).isFalse();
        assertThat(a.answered()).isGreaterThanOrEqualTo(2);
        assertThat(client.counters().failures()).isZero();
    }

    @Test
    void whenEveryServerIsOutTheErrorSaysSoInOneLine() {
        List<Server> s = servers("a", "b", "c");
        LlmClient client = LlmClient.builder(s).retry(FAST.withMaxAttempts(12)).ejection(STAYS_OUT).build();
        s.forEach(x -> x.down = true);

        assertThatThrownBy(() -> client.call(LlmRequest.user("q").build()))
                .isInstanceOf(LlmCallFailedException.class)
                .hasMessageContaining("all 3 model servers are out after failing repeatedly (openai:http://a/v1,"
                        + " openai:http://b/v1, openai:http://c/v1); the next is probed in")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(s).allSatisfy(x -> assertThat(x.attempts.get()).isEqualTo(3)); // 9 failures took them all out
    }

    @Test
    void theCacheFindsASampleWhicheverServerMadeItAndInWhateverOrderTheyAreListed() {
        List<Server> s = servers("a", "b", "c");
        try (SqliteResponseCache cache = SqliteResponseCache.open(dir.resolve("cache.db"))) {
            LlmClient first = LlmClient.builder(s).cache(cache, CacheMode.READ_WRITE).build();
            LlmResponse made = first.call(LlmRequest.user("q").temperature(0.7).n(3).build());
            int asked = s.stream().mapToInt(x -> x.attempts.get()).sum();
            // the same client again: the next server in turn would answer, the cache does instead
            assertThat(first.call(LlmRequest.user("q").temperature(0.7).n(3).build()).completions())
                    .isEqualTo(made.completions());
            LlmClient reordered = LlmClient.builder(List.of(s.get(2), s.get(0), s.get(1)))
                    .cache(cache, CacheMode.READ_WRITE).build();
            assertThat(reordered.call(LlmRequest.user("q").temperature(0.7).n(3).build()).completions())
                    .isEqualTo(made.completions());

            assertThat(s.stream().mapToInt(x -> x.attempts.get()).sum()).isEqualTo(asked);
            assertThat(first.counters().cacheHits()).isEqualTo(1);
            assertThat(reordered.counters().cacheHits()).isEqualTo(1);
        }
    }

    @Test
    void oneServerIsTheClientItAlwaysWas() {
        Server only = new Server("only");
        InMemoryTraces traces = new InMemoryTraces();
        LlmClient client = LlmClient.builder(only).retry(FAST).traces(traces).build();
        LlmClient listed = LlmClient.builder(List.of(only)).retry(FAST).build();
        only.down = true;

        // never taken out: every attempt of every call still goes to it, and the error names it as before
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> client.call(LlmRequest.user("q").model("m").build()))
                    .hasMessageStartingWith("Model call to openai:http://only/v1 (model m) failed after 5 attempts");
        }
        assertThat(only.attempts.get()).isEqualTo(10);
        assertThat(client.endpoints()).singleElement().satisfies(e -> {
            assertThat(e.out()).isFalse();
            assertThat(e.ejections()).isZero();
        });
        only.down = false;
        client.call(CallContext.NONE, LlmRequest.user("q").build());
        assertThat(traces.all().getLast().backendId()).isEqualTo("openai:http://only/v1");
        assertThat(traces.all().getLast().endpoint()).isNull();
        assertThat(listed.counters().limit()).isEqualTo(16);
    }

    @Test
    void anAttemptWaitingForAServerThatIsTakenOutMeanwhileGoesElsewhere() throws Exception {
        List<Server> s = servers("a", "b");
        LlmClient client = LlmClient.builder(s).concurrency(1).retry(FAST).ejection(new Ejection(1, Duration.ofHours(1)))
                .build();
        var release = new java.util.concurrent.CountDownLatch(1);
        s.forEach(x -> x.hold = release);
        List<Thread> calls = new ArrayList<>();
        // in turn: a, b (each now in flight), a again (waits for a's limit), then b: fewer outstanding (1 against 2),
        // where it waits for b's limit
        int[] expected = {1, 1, 2, 2};
        int[] server = {0, 1, 0, 1};
        for (int i = 0; i < 4; i++) {
            int k = i;
            calls.add(Thread.ofVirtual().start(() -> client.call(LlmRequest.user("q" + k).build())));
            dev.veracity.testing.Await.until("call " + k + " chose its server",
                    () -> client.endpoints().get(server[k]).outstanding() == expected[k]);
        }
        s.get(1).down = true; // b's attempt in flight fails: one failure takes it out
        release.countDown();
        for (Thread t : calls) {
            t.join();
        }

        assertThat(s.get(1).attempts.get()).isEqualTo(1); // the one that waited for b went to a instead
        assertThat(s.get(0).attempts.get()).isEqualTo(4);
        assertThat(client.endpoints().get(1).ejections()).isEqualTo(1);
        assertThat(client.counters().failures()).isZero();
    }
}
