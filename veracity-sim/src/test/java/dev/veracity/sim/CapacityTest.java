package dev.veracity.sim;

import dev.veracity.testing.Await;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Capacity, queueing and latency on a {@link ManualClock}: the test moves time on and checks, at each step, which
 * requests generate, which wait for a slot and how long each still sleeps, so that no figure depends on how busy the
 * machine is.
 */
class CapacityTest {

    private static final Duration MS_100 = Duration.ofMillis(100);

    /** Sends {@code count} chat requests at once on {@code pool}. */
    private static List<Future<HttpResponse<String>>> send(ExecutorService pool, SimServer sim, int count, String extra) {
        List<Future<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            calls.add(pool.submit(() -> Http.post(sim, "/chat/completions", userMessage("hi", extra))));
        }
        return calls;
    }

    private static long done(List<Future<HttpResponse<String>>> calls) {
        return calls.stream().filter(Future::isDone).count();
    }

    private static List<Integer> statuses(List<Future<HttpResponse<String>>> calls) throws Exception {
        List<Integer> out = new ArrayList<>();
        for (Future<HttpResponse<String>> f : calls) {
            out.add(f.get().statusCode());
        }
        return out;
    }

    @Test
    void capacityQueuesRequestsSoThroughputSaturates() throws Exception {
        ManualClock clock = new ManualClock();
        SimConfig config = SimConfig.builder().capacity(2).latency(LatencyModel.ofMillis(100, 0)).clock(clock).build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor(); SimServer sim = SimServer.start(config)) {
            List<Future<HttpResponse<String>>> calls = send(pool, sim, 6, "");
            // 6 requests × 100 ms on 2 slots: three waves of two, each done when the clock has moved 100 ms on.
            for (int wave = 0; wave < 3; wave++) {
                int finished = 2 * wave;
                Await.until("wave " + wave + ": " + finished + " answered, 2 generating, the rest queued; " + clock,
                        () -> done(calls) == finished && clock.sleeping().size() == 2
                                && sim.counters().queued() == 4 - finished);
                assertThat(clock.sleeping()).containsExactly(MS_100, MS_100);
                assertThat(sim.counters().generating()).isEqualTo(2);
                assertThat(sim.counters().queued()).isEqualTo(4 - finished);
                clock.advance(Duration.ofMillis(99));
                assertThat(clock.sleeping()).as("a millisecond early").containsExactly(Duration.ofMillis(1), Duration.ofMillis(1));
                assertThat(done(calls)).isEqualTo(finished);
                clock.advance(Duration.ofMillis(1));
            }
            assertThat(statuses(calls)).containsOnly(200).hasSize(6);
            assertThat(clock.nanoTime()).isEqualTo(Duration.ofMillis(300).toNanos());
            assertThat(sim.counters().peakInFlight()).isEqualTo(6);
            assertThat(sim.counters().peakGenerating()).isEqualTo(2);
            assertThat(sim.counters().peakQueued()).isEqualTo(4);
            Await.until("nothing in flight", () -> sim.counters().inFlight() == 0);
            assertThat(sim.counters().generating()).isZero();
        }
    }

    @Test
    void enoughCapacityServesConcurrentRequestsInParallel() throws Exception {
        ManualClock clock = new ManualClock();
        SimConfig config = SimConfig.builder().capacity(6).latency(LatencyModel.ofMillis(100, 0)).clock(clock).build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor(); SimServer sim = SimServer.start(config)) {
            List<Future<HttpResponse<String>>> calls = send(pool, sim, 6, "");
            Await.until("6 generating at once; " + clock, () -> clock.sleeping().size() == 6);
            assertThat(sim.counters().queued()).isZero();
            clock.advance(MS_100); // one service time serves all six
            assertThat(statuses(calls)).containsOnly(200).hasSize(6);
            assertThat(sim.counters().peakGenerating()).isEqualTo(6);
            assertThat(sim.counters().peakQueued()).isZero();
        }
    }

    @Test
    void serviceTimeGrowsWithOutputTokens() throws Exception {
        // "one two three four five" is 5 tokens: 5 × 40 ms; max_tokens 1 makes it 40 ms.
        ManualClock clock = new ManualClock();
        SimConfig config = SimConfig.builder()
                .rules(Rule.of("", "one two three four five"))
                .latency(new LatencyModel(Duration.ZERO, Duration.ofMillis(40)))
                .clock(clock)
                .build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor(); SimServer sim = SimServer.start(config)) {
            Future<HttpResponse<String>> full = send(pool, sim, 1, "").getFirst();
            Await.until("the full answer sleeping; " + clock, () -> clock.sleeping().size() == 1);
            assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(200));
            clock.advance(Duration.ofMillis(200));
            assertThat(full.get().statusCode()).isEqualTo(200);

            Future<HttpResponse<String>> one = send(pool, sim, 1, "\"max_tokens\":1").getFirst();
            Await.until("the one-token answer sleeping; " + clock, () -> clock.sleeping().size() == 1);
            assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(40));
            clock.advance(Duration.ofMillis(40));
            assertThat(one.get().statusCode()).isEqualTo(200);
        }
    }

    @Test
    void fullQueueAnswers429WithRetryAfter() throws Exception {
        fullQueueTurnsTheThirdAway(null, 1500, 429, "2");
    }

    @Test
    void fullQueueAnswers503WithRetryAfterWhenSoConfigured() throws Exception {
        // as an overloaded proxy does
        fullQueueTurnsTheThirdAway(503, 200, 503, "1");
    }

    /**
     * A simulator with one slot and a queue of one, sent three requests while its clock stands still: one generates, one
     * queues, the third finds the queue full and is turned away with {@code status} and its Retry-After (seconds rounded
     * up, and the exact milliseconds); the other two are answered as the clock moves on.
     *
     * @param configured the queue-full status set in the config, or null for the default
     */
    private static void fullQueueTurnsTheThirdAway(Integer configured, int retryAfterMs, int status, String retryAfterSeconds)
            throws Exception {
        ManualClock clock = new ManualClock();
        SimConfig.Builder builder = SimConfig.builder().capacity(1).maxQueue(1)
                .latency(LatencyModel.ofMillis(300, 0)).retryAfter(Duration.ofMillis(retryAfterMs)).clock(clock);
        if (configured != null) {
            builder.queueFullStatus(configured);
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor(); SimServer sim = SimServer.start(builder.build())) {
            List<Future<HttpResponse<String>>> calls = send(pool, sim, 3, "");
            Await.until("one answered at once; " + sim.counters(), () -> done(calls) == 1);
            assertThat(sim.counters().generating()).isEqualTo(1);
            assertThat(sim.counters().queued()).isEqualTo(1);
            HttpResponse<String> r = calls.stream().filter(Future::isDone).findFirst().orElseThrow().get();
            assertThat(r.statusCode()).isEqualTo(status);
            assertThat(r.headers().firstValue("Retry-After")).contains(retryAfterSeconds);
            assertThat(r.headers().firstValue("retry-after-ms")).contains(Integer.toString(retryAfterMs));
            assertThat(Http.json(r).get("error").get("code").asText()).isEqualTo("queue_full");
            assertThat(sim.counters().queueRejections()).isEqualTo(1);

            for (int answered = 2; answered <= 3; answered++) {
                Await.until("one generating; " + clock, () -> clock.sleeping().size() == 1);
                clock.advance(Duration.ofMillis(300));
                int expected = answered;
                Await.until(expected + " answered", () -> done(calls) == expected);
            }
            assertThat(statuses(calls)).containsExactlyInAnyOrder(200, 200, status);
        }
    }

    @Test
    void queueFullStatusIsEither429Or503() {
        assertThatThrownBy(() -> SimConfig.builder().queueFullStatus(500).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("429 or 503");
    }

    @Test
    void zeroQueueRejectsWhenAllSlotsAreBusy() throws Exception {
        ManualClock clock = new ManualClock();
        SimConfig config = SimConfig.builder().capacity(2).maxQueue(0).latency(LatencyModel.ofMillis(300, 0))
                .clock(clock).build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor(); SimServer sim = SimServer.start(config)) {
            List<Future<HttpResponse<String>>> calls = send(pool, sim, 4, "");
            Await.until("two rejected while two generate; " + clock,
                    () -> done(calls) == 2 && clock.sleeping().size() == 2);
            assertThat(sim.counters().queued()).isZero();
            clock.advance(Duration.ofMillis(300));
            assertThat(statuses(calls)).containsExactlyInAnyOrder(200, 200, 429, 429);
        }
    }

    @Test
    void closeEndsQueuedAndGeneratingRequestsPromptly() throws Exception {
        // 30 s of latency on a clock that never moves: only the close can end these requests.
        ManualClock clock = new ManualClock();
        SimServer sim = SimServer.start(SimConfig.builder().capacity(1).latency(LatencyModel.ofMillis(30_000, 0))
                .clock(clock).build());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> calls = send(pool, sim, 3, "");
            Await.until("3 in flight, 1 generating; " + sim.counters(),
                    () -> sim.counters().inFlight() == 3 && clock.sleeping().size() == 1);
            sim.close();
            assertThat(clock.sleeping()).as("the generating request woke on the close").isEmpty();
            for (Future<HttpResponse<String>> c : calls) {
                assertThatThrownBy(c::get).isInstanceOf(ExecutionException.class); // no answer, connection dropped
            }
            assertThat(sim.counters().inFlight()).isZero();
            assertThat(clock.nanoTime()).isZero();
        }
    }

    @Test
    void jitterScalesAGenerationsTimesByOneDrawnFactorAroundTheMean() {
        LatencyModel m = LatencyModel.ofMillis(100, 10).withJitter(0.2);
        assertThat(m.forGeneration(0.0).serviceTime(0)).isEqualTo(Duration.ofMillis(80));
        assertThat(m.forGeneration(0.5).serviceTime(3)).isEqualTo(Duration.ofMillis(130));
        LatencyModel slow = m.forGeneration(0.999);
        assertThat(slow.timeToFirstToken().toNanos()).isBetween(119_900_000L, 120_000_000L);
        assertThat(slow.perOutputToken().toNanos()).isBetween(11_990_000L, 12_000_000L);
        assertThat(slow.jitter()).isZero(); // a generation's events share the one factor
        assertThat(LatencyModel.ofMillis(100, 0).forGeneration(0.9).serviceTime(0)).isEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() -> m.withJitter(1.0)).hasMessageContaining("[0, 1)");
        assertThatThrownBy(() -> m.withJitter(-0.1)).hasMessageContaining("[0, 1)");
    }

    @Test
    void jitteredCallsSpreadOverTheRangeInsteadOfEndingTogether() throws Exception {
        ManualClock clock = new ManualClock();
        SimConfig config = SimConfig.builder().latency(LatencyModel.ofMillis(200, 0).withJitter(0.5)).clock(clock).build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor(); SimServer sim = SimServer.start(config)) {
            List<Long> ms = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                Future<HttpResponse<String>> call = send(pool, sim, 1, "").getFirst();
                Await.until("call sleeping; " + clock, () -> clock.sleeping().size() == 1);
                Duration service = clock.sleeping().getFirst();
                ms.add(service.toMillis());
                clock.advance(service);
                assertThat(call.get().statusCode()).isEqualTo(200);
            }
            // 100-300 ms each; twelve seeded draws do not all land within 40 ms of one another.
            assertThat(ms).allSatisfy(t -> assertThat(t).isBetween(100L, 300L));
            assertThat(ms.stream().mapToLong(Long::longValue).max().orElseThrow()
                    - ms.stream().mapToLong(Long::longValue).min().orElseThrow()).isGreaterThan(40);
        }
    }

    @Test
    void theServersOwnWorkOnARequestIsInsideItsLatencyNotAddedToIt() throws Exception {
        // a reader that takes 60 ms of the clock to read the prompt: a 100 ms service time then sleeps the other 40, as a
        // real server's prefill is part of its time to first token (a slot's wait or a hang would still add)
        ManualClock clock = new ManualClock();
        dev.veracity.sim.reader.PromptReader slow = new dev.veracity.sim.reader.PromptReader() {
            @Override
            public String name() {
                return "slow";
            }

            @Override
            public java.util.Optional<String> read(String prompt) {
                clock.advance(Duration.ofMillis(60));
                return java.util.Optional.of("read");
            }
        };
        SimConfig config = SimConfig.builder().capacity(4).latency(LatencyModel.ofMillis(100, 0)).readers(List.of(slow))
                .clock(clock).build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor(); SimServer sim = SimServer.start(config)) {
            List<Future<HttpResponse<String>>> calls = send(pool, sim, 1, "");
            Await.until("one generating; " + clock, () -> clock.sleeping().size() == 1);
            assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(40));
            clock.advance(Duration.ofMillis(40));
            assertThat(statuses(calls)).containsExactly(200);
            assertThat(calls.getFirst().get().body()).contains("read");
        }
    }
}
