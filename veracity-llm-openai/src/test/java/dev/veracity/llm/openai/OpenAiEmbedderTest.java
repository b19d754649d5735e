package dev.veracity.llm.openai;

import static dev.veracity.sim.FaultKind.HANG;
import static dev.veracity.sim.FaultKind.NONE;
import static dev.veracity.sim.FaultKind.RATE_LIMIT;
import static dev.veracity.sim.FaultKind.RESET;
import static dev.veracity.sim.FaultKind.SERVER_ERROR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.sim.Endpoint;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The embedder against the simulator's deterministic {@code /v1/embeddings} on loopback. */
class OpenAiEmbedderTest {

    static final List<String> TEXTS = IntStream.range(0, 100).mapToObj(i -> "passage " + i + " about topic " + (i % 7)).toList();

    @Test
    void batchesKeepTheTextsOrderAndVectorsAreTheServersNormalised() {
        try (SimServer sim = SimServer.start();
             OpenAiEmbedder e = OpenAiEmbedder.builder(sim.baseUrl(), "bge").batchSize(16).concurrency(3)
                     .queryPrefix("query: ").build();
             OpenAiEmbedder one = OpenAiEmbedder.builder(sim.baseUrl(), "bge").batchSize(1).build()) {
            assertThat(e.dimension()).isEqualTo(384);
            assertThat(e.name()).isEqualTo("bge");
            List<float[]> batched = e.embed(TEXTS);
            assertThat(batched).hasSize(TEXTS.size());
            for (int i = 0; i < TEXTS.size(); i += 9) {
                assertThat(batched.get(i)).as(TEXTS.get(i)).containsExactly(one.embed(List.of(TEXTS.get(i))).getFirst());
            }
            assertThat(batched.get(0)).isNotEqualTo(batched.get(1));
            // 2 probes (one per embedder) + 7 batches of at most 16 + the single-text requests above
            assertThat(sim.counters().requests(Endpoint.EMBEDDINGS)).isEqualTo(2 + 7 + 12);
            assertThat(sim.recentRequests().stream().mapToInt(r -> r.body().get("input").size()).max()).hasValue(16);
            assertThat(e.embedQuery("topic 3")).containsExactly(one.embed(List.of("query: topic 3")).getFirst());
        }
    }

    @Test
    void requestsInFlightAreBoundedByTheConcurrencyWhateverTheCallers() throws Exception {
        // probe answered at once, then every request hangs 300 ms: the peak in flight is the bound
        List<dev.veracity.sim.FaultKind> script = new ArrayList<>(List.of(NONE));
        script.addAll(java.util.Collections.nCopies(12, HANG));
        try (SimServer sim = SimServer.start(SimConfig.builder()
                .faults(FaultPlan.script(script.toArray(dev.veracity.sim.FaultKind[]::new)).withHangDuration(Duration.ofMillis(300)))
                .build());
             OpenAiEmbedder e = OpenAiEmbedder.builder(sim.baseUrl(), "bge").batchSize(10).concurrency(4).build()) {
            Thread other = Thread.ofPlatform().start(() -> e.embed(TEXTS.subList(0, 40)));
            assertThat(e.embed(TEXTS.subList(40, 100))).hasSize(60);
            other.join();
            assertThat(sim.counters().peakInFlight()).isEqualTo(4);
        }
    }

    @Test
    void rateLimitsServerErrorsAndDroppedConnectionsAreRetried() {
        try (SimServer sim = SimServer.start(SimConfig.builder().retryAfter(Duration.ofMillis(10))
                .faults(FaultPlan.script(NONE, RATE_LIMIT, SERVER_ERROR, RESET)).build());
             OpenAiEmbedder e = OpenAiEmbedder.builder(sim.baseUrl(), "bge").batchSize(100).build()) {
            assertThat(e.embed(TEXTS)).hasSize(100);
            assertThat(sim.counters().requests(Endpoint.EMBEDDINGS)).isEqualTo(5);
        }
    }

    @Test
    void aWrongModelOrUrlFailsWhenBuiltWithOneLine() {
        try (SimServer sim = SimServer.start(SimConfig.builder().models("bge").build())) {
            assertThatThrownBy(() -> OpenAiEmbedder.builder(sim.baseUrl(), "other").build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("answered HTTP 404 for model other");
        }
        assertThatThrownBy(() -> OpenAiEmbedder.builder("http://127.0.0.1:9/v1", "bge").maxRetries(0).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the embedding server http://127.0.0.1:9/v1 failed");
    }
}
