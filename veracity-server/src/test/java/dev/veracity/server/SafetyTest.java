package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.http.ServerLog;
import dev.veracity.sim.ManualClock;
import dev.veracity.sim.SimConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** API keys, per-key limits, where the server may listen, and keys kept out of everything it says. */
class SafetyTest {

    private static final String ALICE = "sk-alice-0123456789abcdef";
    private static final String BOB = "sk-bob-fedcba9876543210xyz";

    /** Log lines, to check what the server says about keys. */
    private static final class Lines implements ServerLog {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void info(String line) {
            lines.add(line);
        }

        @Override
        public void warn(String line) {
            lines.add(line);
        }
    }

    @Test
    void keysFromAFileAndTheEnvironmentAreRequiredAndNeverEchoed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("keys");
        Files.writeString(file, "# serve keys\n" + ALICE + " alice\n\n" + BOB + "\n");
        ApiKeys keys = ApiKeys.load(file, "sk-env-key-aaaaaaaaaaaaaaaa");
        assertThat(keys.size()).isEqualTo(3);
        assertThat(keys.match(ALICE)).isEqualTo("alice");
        assertThat(keys.match(BOB)).isEqualTo("key-2");
        assertThat(keys.match("sk-env-key-aaaaaaaaaaaaaaaa")).isEqualTo("env-1");
        assertThat(keys.match(ALICE + "x")).isNull();
        assertThat(keys.match("")).isNull();

        Lines log = new Lines();
        try (Served s = Served.start(SimConfig.defaults(), x -> x.withKeys(keys), b -> b.log(log), Duration.ofSeconds(30))) {
            String url = s.v1() + "/chat/completions";
            Http.Reply none = Http.post(url, Http.chat("standard-rag", ""));
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.error().path("code").asText()).isEqualTo("missing_api_key");
            assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer");
            // refused before its body was read: the connection closes, and says so, so that the client's next request
            // does not go out on a connection the server drops (the JDK client: "header parser received no bytes")
            assertThat(none.header("Connection")).isEqualTo("close");
            String wrongToken = "sk-wrong-" + ALICE;
            Http.Reply wrong = Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + wrongToken);
            assertThat(wrong.status()).isEqualTo(401);
            assertThat(wrong.error().path("code").asText()).isEqualTo("invalid_api_key");
            assertThat(wrong.body()).doesNotContain(wrongToken).doesNotContain("sk-");
            Http.Reply ok = Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + ALICE);
            assertThat(ok.status()).isEqualTo(200);
            assertThat(Http.get(s.v1() + "/models", "Authorization", "bearer " + BOB).status()).isEqualTo(200);
            assertThat(Http.get(s.v1() + "/models").status()).isEqualTo(401);
            // probes carry no key
            assertThat(Http.get(s.server.baseUrl() + "/healthz").status()).isEqualTo(200);
            assertThat(Http.get(s.server.baseUrl() + "/readyz").status()).isEqualTo(200);
            // a failing request is logged: still no key
            Http.post(url, Http.chat("nope", ""), "Authorization", "Bearer " + ALICE);
            String metrics = Http.get(s.server.baseUrl() + "/metrics").body();
            assertThat(metrics).contains("veracity_serve_rejections_total{reason=\"invalid_api_key\"} 1")
                    .contains("veracity_serve_rejections_total{reason=\"missing_api_key\"} 2");
            for (String text : List.of(metrics, String.join("\n", log.lines), s.calls.all().toString())) {
                assertThat(text).doesNotContain(ALICE).doesNotContain(BOB).doesNotContain(wrongToken);
            }
            assertThat(log.lines).isNotEmpty();
        }
    }

    @Test
    void badKeyFilesAreRefusedNamingTheLineNotTheKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("keys");
        Files.writeString(file, "short\n");
        assertThatThrownBy(() -> ApiKeys.load(file, null)).hasMessageContaining("line 1")
                .hasMessageContaining("16 characters").hasMessageNotContaining("short\n");
        Files.writeString(file, ALICE + " two words\n");
        assertThatThrownBy(() -> ApiKeys.load(file, null)).hasMessageContaining("line 1").hasMessageNotContaining(ALICE);
    }

    @Test
    void withoutKeysTheServerListensOnLoopbackOnlyUnlessToldOtherwise() throws Exception {
        assertThatThrownBy(() -> Served.start(SimConfig.defaults(), s -> s.withHost("0.0.0.0"), b -> b, Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--insecure-listen")
                .hasMessageContaining("--api-keys-file");
        try (Served open = Served.start(SimConfig.defaults(), s -> s.withHost("0.0.0.0").withInsecureListen(true), b -> b,
                Duration.ofSeconds(5))) {
            assertThat(Http.get("http://127.0.0.1:" + open.server.port() + "/healthz").status()).isEqualTo(200);
        }
        ApiKeys alice = ApiKeys.load(null, ALICE);
        try (Served keyed = Served.start(SimConfig.defaults(), s -> s.withHost("0.0.0.0").withKeys(alice), b -> b,
                Duration.ofSeconds(5))) {
            assertThat(Http.get("http://127.0.0.1:" + keyed.server.port() + "/v1/models", "Authorization",
                    "Bearer " + ALICE).status()).isEqualTo(200);
        }
    }

    @Test
    void eachKeyHasItsRateAndItsRequestsInFlight() throws Exception {
        ApiKeys keys = ApiKeys.load(null, ALICE + "," + BOB);
        // 6 per minute: a burst of one, then one every 10 s
        try (Served s = Served.start(SimConfig.defaults(), x -> x.withKeys(keys).withRequestsPerMinute(6), b -> b,
                Duration.ofSeconds(30))) {
            String url = s.v1() + "/chat/completions";
            long sent = System.nanoTime();
            assertThat(Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + ALICE).status()).isEqualTo(200);
            Http.Reply limited = Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + ALICE);
            assertThat(limited.status()).isEqualTo(429);
            assertThat(limited.error().path("code").asText()).isEqualTo("rate_limit_exceeded");
            assertThat(limited.error().path("type").asText()).isEqualTo("rate_limit_error");
            // the next token is 10 s after the first request was admitted: what is left of that, rounded up (a loaded
            // machine may take seconds over the first request, so the lower bound follows the time that passed)
            long passed = (System.nanoTime() - sent + 999_999_999L) / 1_000_000_000L;
            assertThat(Integer.parseInt(limited.header("Retry-After"))).isBetween((int) Math.max(1, 9 - passed), 10);
            assertThat(Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + BOB).status())
                    .as("another key has its own rate").isEqualTo(200);
        }
        // The upstream answers when the test moves its clock on: the first request holds Alice's place until then.
        ManualClock clock = new ManualClock();
        try (Served s = Served.start(SimConfig.builder().latency(dev.veracity.sim.LatencyModel.ofMillis(400, 0)).clock(clock).build(),
                x -> x.withKeys(keys).withMaxInFlightPerKey(1), b -> b, Duration.ofSeconds(30))) {
            String url = s.v1() + "/chat/completions";
            CompletableFuture<Http.Reply> first = CompletableFuture.supplyAsync(() ->
                    Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + ALICE));
            awaitUpstreamCalls(clock, 1);
            Http.Reply second = Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + ALICE);
            assertThat(second.status()).isEqualTo(429);
            assertThat(second.error().path("code").asText()).isEqualTo("too_many_concurrent_requests");
            assertThat(second.header("Retry-After")).isEqualTo("1");
            CompletableFuture<Http.Reply> bob = CompletableFuture.supplyAsync(() ->
                    Http.post(url, Http.chat("standard-rag", ""), "Authorization", "Bearer " + BOB));
            awaitUpstreamCalls(clock, 2);
            clock.advance(Duration.ofMillis(400));
            assertThat(bob.join().status()).as("another key has its own places").isEqualTo(200);
            assertThat(first.join().status()).isEqualTo(200);
            // The place comes back when the server has closed the first request, which can be just after its client
            // read the answer: a request sent in between is refused as one too many at once, and is sent again.
            CompletableFuture<Http.Reply> again = aliceAsks(url);
            long guard = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (clock.sleeping().isEmpty()) {
                if (again.isDone()) {
                    assertThat(again.join().error().path("code").asText()).isEqualTo("too_many_concurrent_requests");
                    again = aliceAsks(url);
                }
                assertThat(System.nanoTime() - guard).as("Alice's place given back (a guard, not a measure): %s", clock)
                        .isNegative();
                Thread.sleep(5);
            }
            clock.advance(Duration.ofMillis(400));
            assertThat(again.join().status()).as("the place is given back").isEqualTo(200);
        }
    }

    private static CompletableFuture<Http.Reply> aliceAsks(String url) {
        return CompletableFuture.supplyAsync(() -> Http.post(url, Http.chat("standard-rag", ""), "Authorization",
                "Bearer " + ALICE));
    }

    /** Waits until {@code n} upstream calls sleep in the simulator's latency (a 60 s guard, not a measure). */
    private static void awaitUpstreamCalls(ManualClock clock, int n) throws InterruptedException {
        assertThat(clock.awaitSleeping(n, Duration.ofSeconds(60))).as("%d upstream calls under way: %s", n, clock).isTrue();
    }

    @Test
    void theServersConcurrencyLimitAnswers429WithRetryAfter() throws Exception {
        ManualClock clock = new ManualClock();
        try (Served s = Served.start(SimConfig.builder().latency(dev.veracity.sim.LatencyModel.ofMillis(500, 0)).clock(clock).build(),
                x -> x.withLimits(x.limits().withMaxConcurrentRequests(1).withQueueWait(Duration.ofMillis(50))), b -> b,
                Duration.ofSeconds(30))) {
            String url = s.v1() + "/chat/completions";
            CompletableFuture<Http.Reply> first = CompletableFuture.supplyAsync(() -> Http.post(url, Http.chat("standard-rag", "")));
            awaitUpstreamCalls(clock, 1); // the first holds the one place until the clock moves
            Http.Reply busy = Http.post(url, Http.chat("standard-rag", ""));
            assertThat(busy.status()).isEqualTo(429);
            assertThat(busy.header("Retry-After")).isEqualTo("1");
            clock.advance(Duration.ofMillis(500));
            assertThat(first.join().status()).isEqualTo(200);
        }
    }
}
