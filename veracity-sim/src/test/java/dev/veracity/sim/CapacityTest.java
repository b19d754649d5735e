package dev.veracity.sim;

import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CapacityTest {

    /** Sends {@code count} chat requests at once; returns their responses and the wall time in ms. */
    private static long concurrently(SimServer sim, int count, List<HttpResponse<String>> out) throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(() -> Http.post(sim, "/chat/completions", userMessage("hi", ""))));
            }
            for (Future<HttpResponse<String>> f : futures) {
                out.add(f.get());
            }
            return (System.nanoTime() - start) / 1_000_000;
        }
    }

    @Test
    void capacityQueuesRequestsSoThroughputSaturates() throws Exception {
        SimConfig config = SimConfig.builder().capacity(2).latency(LatencyModel.ofMillis(100, 0)).build();
        try (SimServer sim = SimServer.start(config)) {
            List<HttpResponse<String>> responses = new ArrayList<>();
            long ms = concurrently(sim, 6, responses);

            assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
            // 6 requests × 100 ms on 2 slots: three waves.
            assertThat(ms).isGreaterThanOrEqualTo(295).isLessThan(3000);
            assertThat(sim.counters().peakInFlight()).isEqualTo(6);
            assertThat(sim.counters().peakGenerating()).isEqualTo(2);
            assertThat(sim.counters().peakQueued()).isEqualTo(4);
            assertThat(sim.counters().inFlight()).isZero();
            assertThat(sim.counters().generating()).isZero();
        }
    }

    @Test
    void enoughCapacityServesConcurrentRequestsInParallel() throws Exception {
        SimConfig config = SimConfig.builder().capacity(6).latency(LatencyModel.ofMillis(100, 0)).build();
        try (SimServer sim = SimServer.start(config)) {
            concurrently(sim, 6, new ArrayList<>()); // open the connections first
            sim.counters().resetPeak();
            long ms = concurrently(sim, 6, new ArrayList<>());
            assertThat(ms).isGreaterThanOrEqualTo(100).isLessThan(290);
            assertThat(sim.counters().peakGenerating()).isEqualTo(6);
        }
    }

    @Test
    void serviceTimeGrowsWithOutputTokens() {
        // "one two three four five" is 5 tokens: 5 × 40 ms; max_tokens 1 makes it 40 ms.
        SimConfig config = SimConfig.builder()
                .rules(Rule.of("", "one two three four five"))
                .latency(new LatencyModel(Duration.ZERO, Duration.ofMillis(40)))
                .build();
        try (SimServer sim = SimServer.start(config)) {
            Http.chat(sim, userMessage("warm up", "\"max_tokens\":1"));
            long start = System.nanoTime();
            Http.chat(sim, userMessage("x", ""));
            long full = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            Http.chat(sim, userMessage("x", "\"max_tokens\":1"));
            long one = (System.nanoTime() - start) / 1_000_000;
            assertThat(full).isGreaterThanOrEqualTo(200);
            assertThat(one).isGreaterThanOrEqualTo(40).isLessThan(full - 100);
        }
    }

    @Test
    void fullQueueAnswers429WithRetryAfter() throws Exception {
        SimConfig config = SimConfig.builder().capacity(1).maxQueue(1)
                .latency(LatencyModel.ofMillis(300, 0)).retryAfter(Duration.ofMillis(1500)).build();
        try (SimServer sim = SimServer.start(config)) {
            List<HttpResponse<String>> responses = new ArrayList<>();
            concurrently(sim, 3, responses);

            List<HttpResponse<String>> rejected = responses.stream().filter(r -> r.statusCode() == 429).toList();
            assertThat(rejected).hasSize(1);
            assertThat(responses.stream().filter(r -> r.statusCode() == 200)).hasSize(2);
            HttpResponse<String> r = rejected.getFirst();
            assertThat(r.headers().firstValue("Retry-After")).contains("2");
            assertThat(r.headers().firstValue("retry-after-ms")).contains("1500");
            assertThat(Http.json(r).get("error").get("code").asText()).isEqualTo("queue_full");
            assertThat(sim.counters().queueRejections()).isEqualTo(1);
        }
    }

    @Test
    void zeroQueueRejectsWhenAllSlotsAreBusy() throws Exception {
        SimConfig config = SimConfig.builder().capacity(2).maxQueue(0).latency(LatencyModel.ofMillis(300, 0)).build();
        try (SimServer sim = SimServer.start(config)) {
            List<HttpResponse<String>> responses = new ArrayList<>();
            concurrently(sim, 4, responses);
            assertThat(responses.stream().filter(r -> r.statusCode() == 429)).hasSize(2);
            assertThat(responses.stream().filter(r -> r.statusCode() == 200)).hasSize(2);
        }
    }

    @Test
    void closeEndsQueuedAndGeneratingRequestsPromptly() throws Exception {
        SimServer sim = SimServer.start(SimConfig.builder().capacity(1).latency(LatencyModel.ofMillis(30_000, 0)).build());
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> Http.post(sim, "/chat/completions", userMessage("x", ""))));
        }
        while (sim.counters().inFlight() < 3) {
            Thread.sleep(5);
        }
        long start = System.nanoTime();
        sim.close();
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2000);
        for (CompletableFuture<HttpResponse<String>> c : calls) {
            assertThat(c).failsWithin(Duration.ofSeconds(5));
        }
        assertThat(sim.counters().inFlight()).isZero();
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
        SimConfig config = SimConfig.builder().latency(LatencyModel.ofMillis(200, 0).withJitter(0.5)).build();
        try (SimServer sim = SimServer.start(config)) {
            List<Long> ms = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                long start = System.nanoTime();
                assertThat(Http.post(sim, "/chat/completions", userMessage("hi " + i, "")).statusCode()).isEqualTo(200);
                ms.add((System.nanoTime() - start) / 1_000_000);
            }
            // 100-300 ms each; twelve seeded draws do not all land within 40 ms of one another.
            assertThat(ms).allSatisfy(t -> assertThat(t).isBetween(99L, 2_000L));
            assertThat(ms.stream().mapToLong(Long::longValue).max().orElseThrow()
                    - ms.stream().mapToLong(Long::longValue).min().orElseThrow()).isGreaterThan(40);
        }
    }
}
