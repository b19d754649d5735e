package dev.veracity.sim;

import dev.veracity.testing.Await;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.veracity.sim.Http.chat;
import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

/** Slow requests do not block others or shutdown; oversized bodies are refused unread. */
class RobustnessTest {

    /**
     * A rule that computes (ignoring interrupts) until released, a costly rule on a huge prompt; {@code finished} is
     * set when it returns. {@link Await#GUARD} ends it should a broken test never release it.
     */
    static Rule busy(CountDownLatch started, AtomicBoolean release, AtomicBoolean finished) {
        return Rule.of("slow", m -> {
            started.countDown();
            long end = System.nanoTime() + Await.GUARD.toNanos();
            while (!release.get() && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            finished.set(true);
            return "done";
        });
    }

    @Test
    void aSlowRequestDoesNotHoldUpOthersEvenAtZeroLatency() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean release = new AtomicBoolean();
        AtomicBoolean finished = new AtomicBoolean();
        try (SimServer sim = SimServer.start(SimConfig.builder()
                .rules(busy(started, release, finished), Rule.of("fast", "quick")).build())) {
            CompletableFuture<HttpResponse<String>> slow = Http.CLIENT.sendAsync(
                    Http.request(sim, "/chat/completions").POST(HttpRequest.BodyPublishers.ofString(userMessage("slow", ""))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(started.await(Await.GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(chat(sim, userMessage("fast", "")).at("/choices/0/message/content").asText()).isEqualTo("quick");
            assertThat(finished).as("the fast answer came while the slow one still computed").isFalse();
            release.set(true);
            assertThat(slow.get(Await.GUARD.toSeconds(), TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void closeReturnsWhileARequestIsStillComputing() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean release = new AtomicBoolean();
        AtomicBoolean finished = new AtomicBoolean();
        SimServer sim = SimServer.start(SimConfig.builder().rules(busy(started, release, finished)).build());
        try {
            Http.CLIENT.sendAsync(Http.request(sim, "/chat/completions")
                    .POST(HttpRequest.BodyPublishers.ofString(userMessage("slow", ""))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(started.await(Await.GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
            sim.close();
            assertThat(finished).as("close abandoned the computing handler instead of waiting for it").isFalse();
        } finally {
            release.set(true);
        }
    }

    @Test
    void anOversizedBodyGets413InOpenAisErrorShape() {
        try (SimServer sim = SimServer.start(SimConfig.builder().maxRequestBytes(1024).build())) {
            String big = userMessage("x".repeat(10_000), "");
            HttpResponse<String> r = Http.post(sim, "/chat/completions", big);
            assertThat(r.statusCode()).isEqualTo(413);
            assertThat(Http.json(r).at("/error/code").asText()).isEqualTo("request_too_large");
            assertThat(Http.json(r).at("/error/type").asText()).isEqualTo("invalid_request_error");
            assertThat(Http.json(r).at("/error/message").asText()).contains("1024");
            // Without a Content-Length (chunked), the cap is applied while reading.
            HttpResponse<String> chunked = Http.send(Http.request(sim, "/chat/completions").POST(
                    HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes()))).build());
            assertThat(chunked.statusCode()).isEqualTo(413);
            // At the cap is fine.
            assertThat(Http.post(sim, "/chat/completions", userMessage("hi", "")).statusCode()).isEqualTo(200);
        }
        assertThat(SimConfig.defaults().maxRequestBytes()).isEqualTo(32L << 20);
    }

    @Test
    void unsimulatedFeaturesAreRefusedNotIgnored() {
        try (SimServer sim = SimServer.start()) {
            for (String extra : List.of("\"response_format\":{\"type\":\"json_object\"}",
                    "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"x\",\"schema\":{}}}",
                    "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}]")) {
                HttpResponse<String> r = Http.post(sim, "/chat/completions", userMessage("hi", extra));
                assertThat(r.statusCode()).as(extra).isEqualTo(400);
                assertThat(Http.json(r).at("/error/message").asText()).as(extra).contains("not simulated");
            }
            assertThat(Http.post(sim, "/chat/completions", userMessage("hi", "\"response_format\":{\"type\":\"text\"}"))
                    .statusCode()).isEqualTo(200);
        }
    }
}
