package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.ManualClock;
import dev.veracity.sim.SimConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An upstream that fails: 429s, 500s and hangs on 10% of its calls. Every request is answered with the method's answer
 * or fails with a clear upstream error; nothing else. After many requests, the server holds no thread, no request and
 * no method more than before.
 */
class FaultsTest {

    /** Requests of the leak check (the 10,000: about 20 s here); {@code -Dserve.leak.requests=N} for another count. */
    private static final int LEAK_REQUESTS = Integer.getInteger("serve.leak.requests", 10_000);

    @Test
    void everyRequestIsAnsweredOrFailsWithAClearUpstreamErrorWhenTenPercentOfCallsFail() throws Exception {
        FaultPlan faults = FaultPlan.none().withRate(FaultKind.RATE_LIMIT, 0.034).withRate(FaultKind.SERVER_ERROR, 0.033)
                .withRate(FaultKind.HANG, 0.033).withHangDuration(Duration.ofSeconds(2));
        // Hangs wait on a clock that never moves: a request that finishes at all had its hung calls cut by the 300 ms
        // call timeout, however busy the machine.
        ManualClock clock = new ManualClock();
        SimConfig sim = SimConfig.builder().faults(faults).retryAfter(Duration.ofMillis(10)).seed(7).clock(clock).build();
        try (Served s = Served.start(sim, x -> x, b -> b, Duration.ofMillis(300))) {
            String url = s.v1() + "/chat/completions";
            Map<String, String> expected = Map.of(
                    "standard-rag", s.inProcess("standard-rag", Served.QUESTION, Served.DOCS, Map.of()).answer().prediction(),
                    "madam-rag", s.inProcess("madam-rag", Served.QUESTION, Served.DOCS, Map.of()).answer().prediction());
            Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
            Set<String> unclear = ConcurrentHashMap.newKeySet();
            ExecutorService clients = Executors.newFixedThreadPool(16);
            List<Future<?>> done = new java.util.ArrayList<>();
            for (int i = 0; i < 240; i++) {
                String method = i % 2 == 0 ? "standard-rag" : "madam-rag";
                boolean stream = i % 3 == 0;
                done.add(clients.submit(() -> {
                    Http.Reply r = Http.post(url, Http.chat(method, stream ? "\"stream\": true" : ""));
                    String outcome;
                    if (r.status() == 200 && !stream) {
                        outcome = r.json().at("/choices/0/message/content").asText().equals(expected.get(method)) ? "answered"
                                : "wrong answer: " + r.body();
                    } else if (r.status() == 200) {
                        outcome = r.body().endsWith("data: [DONE]\n\n") ? "answered" : "stream without [DONE]: " + r.body();
                    } else {
                        String code = r.error().path("code").asText();
                        String message = r.error().path("message").asText();
                        boolean clear = Set.of(502, 503, 504).contains(r.status())
                                && Set.of("upstream_error", "upstream_busy", "upstream_timeout").contains(code)
                                && message.startsWith("the upstream model") && message.contains("attempts");
                        outcome = clear ? "failed: " + code : "unclear: " + r.status() + " " + r.body();
                    }
                    if (!outcome.equals("answered") && !outcome.startsWith("failed")) {
                        unclear.add(outcome);
                    }
                    outcomes.computeIfAbsent(outcome.startsWith("failed") || outcome.equals("answered") ? outcome : "other",
                            k -> new AtomicInteger()).incrementAndGet();
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            clients.shutdown();
            assertThat(unclear).isEmpty();
            assertThat(outcomes.get("answered").get()).isGreaterThan(200);
            long injected = s.sim.counters().totalFaultsInjected();
            assertThat(injected).as("faults injected").isGreaterThan(40);
            assertThat(s.calls.where(c -> c.retries() > 0)).as("calls that succeeded after retries").isNotEmpty();
            assertThat(s.sim.counters().faultsInjected(FaultKind.HANG)).as("hangs injected").isPositive();
            assertThat(clock.sleeping()).as("every hang still runs: no request waited one out, the call timeout cut it")
                    .hasSize((int) s.sim.counters().faultsInjected(FaultKind.HANG));
            awaitIdle(s);
        }
    }

    @Test
    void manyRequestsLeaveNoThreadRequestOrMethodBehind() throws Exception {
        try (Served s = Served.start()) {
            String url = s.v1() + "/chat/completions";
            ExecutorService clients = Executors.newFixedThreadPool(8);
            run(clients, url, 300); // warm up: connection pools and the JIT settle
            Set<String> before = serverSideThreads();
            run(clients, url, LEAK_REQUESTS);
            awaitIdle(s);
            Set<String> after = serverSideThreads();
            clients.shutdown();
            Set<String> added = new java.util.TreeSet<>(after);
            added.removeAll(before);
            assertThat(after.size()).as("platform threads after %d requests (before: %d); new: %s", LEAK_REQUESTS,
                    before.size(), added).isLessThanOrEqualTo(before.size() + 1);
        }
    }

    private static void run(ExecutorService clients, String url, int n) throws Exception {
        List<Future<Integer>> done = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean stream = i % 2 == 1;
            done.add(clients.submit(() -> Http.post(url, Http.chat("standard-rag", stream ? "\"stream\": true" : "")).status()));
        }
        for (Future<Integer> f : done) {
            assertThat(f.get()).isEqualTo(200);
        }
    }

    /**
     * The platform threads of the server and its upstream side: all but the test's own HTTP clients (the JDK client's
     * workers come and go with its load, and the fixed pool of client threads). Virtual threads are not platform threads:
     * a method left running is caught by {@link #awaitIdle} instead.
     */
    private static Set<String> serverSideThreads() {
        Set<String> names = new java.util.TreeSet<>();
        Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> !n.startsWith("HttpClient-") && !n.startsWith("pool-")).forEach(names::add);
        return names;
    }

    /** Nothing in flight: no request collecting calls, no method running, no HTTP request open. */
    static void awaitIdle(Served s) throws InterruptedException {
        long until = System.nanoTime() + 60_000_000_000L; // a guard, not a measure
        String metrics = "";
        while (System.nanoTime() < until) {
            metrics = Http.get(s.server.baseUrl() + "/metrics").body();
            if (s.server.requestsCollecting() == 0 && metrics.contains("veracity_serve_pipelines_running 0.0")
                    && metrics.contains("veracity_http_requests_in_flight 1.0")) { // the scrape itself
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("still busy: " + s.server.requestsCollecting() + " collecting; " + metrics.lines()
                .filter(l -> l.contains("running") || l.contains("in_flight")).toList());
    }
}
