package dev.veracity.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The shared server plumbing over real HTTP: routes, the limits, errors, health, metrics, stop. */
class JsonServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a test waits for what should happen at once: a guard against a hung build, not a measure. */
    private static final Duration GUARD = Duration.ofSeconds(60);
    /** Longer than any test runs: work that only a deadline, a grace or a cancel can end. */
    private static final Duration FOREVER = Duration.ofMinutes(10);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private record Reply(int status, String body, HttpResponse<String> raw) {
        JsonNode json() throws Exception {
            return JSON.readTree(body);
        }

        String code() throws Exception {
            return json().path("error").path("code").asText();
        }
    }

    private static Reply post(JsonServer s, String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(s.baseUrl() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static Reply get(JsonServer s, String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(s.baseUrl() + path)).GET().build());
    }

    private static Reply send(HttpRequest r) throws Exception {
        HttpResponse<String> resp = CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
        return new Reply(resp.statusCode(), resp.body(), resp);
    }

    private static JsonServer.Builder echo(ServerLimits limits) {
        return JsonServer.builder().limits(limits).route("POST", "/v1/echo", call -> {
            call.requireBatch(call.body().path("items").size(), "items");
            return JsonReply.ok(call.body());
        });
    }

    @Test
    void aRouteMayAnswerWithABodyThatIsNotJson() throws Exception {
        byte[] page = "<!doctype html><p>é</p>".getBytes(StandardCharsets.UTF_8);
        try (JsonServer s = JsonServer.builder().route("GET", "/", call -> call.send(200, "text/html; charset=utf-8", page,
                java.util.Map.of("Content-Security-Policy", "default-src 'self'"))).start()) {
            Reply r = get(s, "/");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.raw().headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
            assertThat(r.raw().headers().firstValue("Content-Security-Policy")).hasValue("default-src 'self'");
            assertThat(r.body()).isEqualTo("<!doctype html><p>é</p>");
        }
    }

    @Test
    void aRouteAnswersItsJsonAndHealthAndMetricsAreServed() throws Exception {
        try (JsonServer s = echo(ServerLimits.defaults()).start()) {
            Reply r = post(s, "/v1/echo", "{\"items\": [1, 2], \"x\": \"é\"}");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.raw().headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(r.json()).isEqualTo(JSON.readTree("{\"items\": [1, 2], \"x\": \"é\"}"));
            assertThat(r.raw().headers().firstValue("Server")).isEmpty();

            Reply health = get(s, "/health");
            assertThat(health.status()).isEqualTo(200);
            assertThat(health.json()).isEqualTo(JSON.readTree("{\"status\": \"ok\"}"));

            post(s, "/nowhere/" + "x".repeat(200), "{}");
            Reply metrics = get(s, "/metrics");
            assertThat(metrics.status()).isEqualTo(200);
            assertThat(metrics.raw().headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
            assertThat(metrics.body())
                    .contains("veracity_http_requests_total{route=\"/v1/echo\",status=\"200\"} 1")
                    .contains("veracity_http_requests_total{route=\"other\",status=\"404\"} 1")
                    .contains("veracity_http_request_duration_seconds_count{route=\"/v1/echo\"} 1")
                    .contains("veracity_http_requests_in_flight")
                    .doesNotContain("xxxxxxxx");
        }
    }

    @Test
    void unknownPathsAndWrongMethodsGetJsonErrorsNamingWhatExists() throws Exception {
        try (JsonServer s = echo(ServerLimits.defaults()).start()) {
            Reply missing = post(s, "/v2/echo", "{}");
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.code()).isEqualTo("not_found");
            assertThat(missing.json().path("error").path("message").asText()).contains("/v1/echo");
            assertThat(missing.json().path("error").path("type").asText()).isEqualTo("invalid_request_error");

            Reply wrong = get(s, "/v1/echo");
            assertThat(wrong.status()).isEqualTo(405);
            assertThat(wrong.raw().headers().firstValue("Allow")).hasValue("POST");
            assertThat(post(s, "/health", "{}").status()).isEqualTo(405);
        }
    }

    @Test
    void aBodyOverTheLimitIs413WithAReasonAndTheRouteNeverRuns() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withMaxBodyBytes(1000))
                .route("POST", "/r", call -> {
                    calls.incrementAndGet();
                    return JsonReply.ok(call.body());
                }).start()) {
            String big = "{\"a\": \"" + "x".repeat(2000) + "\"}";
            Reply declared = post(s, "/r", big);
            assertThat(declared.status()).isEqualTo(413);
            assertThat(declared.code()).isEqualTo("body_too_large");
            assertThat(declared.json().path("error").path("message").asText()).contains("2,009 bytes").contains("1,000");
            assertThat(declared.raw().headers().firstValue("X-Max-Body-Bytes")).hasValue("1000");

            // no Content-Length (chunked): refused once the limit is passed
            Reply chunked = send(HttpRequest.newBuilder(URI.create(s.baseUrl() + "/r"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                            big.getBytes(StandardCharsets.UTF_8)))).build());
            assertThat(chunked.status()).as(chunked.body()).isEqualTo(413);
            assertThat(chunked.code()).isEqualTo("body_too_large");

            assertThat(post(s, "/r", "{\"a\": \"" + "x".repeat(900) + "\"}").status()).isEqualTo(200);
            assertThat(calls).hasValue(1);
        }
    }

    @Test
    void bodiesThatAreNotOneJsonValueAre400WithWhereAndWhy() throws Exception {
        try (JsonServer s = echo(ServerLimits.defaults()).start()) {
            Reply broken = post(s, "/v1/echo", "{\"items\": [1, 2}");
            assertThat(broken.status()).isEqualTo(400);
            assertThat(broken.code()).isEqualTo("bad_json");
            assertThat(broken.json().path("error").path("message").asText()).startsWith("the body is not JSON at line 1, column ");
            for (String body : List.of("", "   ", "{\"a\": 1} {\"b\": 2}", "{\"a\": 1, \"a\": 2}", "{\"a\": NaN}",
                    "[" .repeat(5000) + "]".repeat(5000))) {
                Reply r = post(s, "/v1/echo", body);
                assertThat(r.status()).as(body.length() > 40 ? "deep nesting" : body).isEqualTo(400);
                assertThat(r.code()).isEqualTo("bad_json");
                assertThat(r.body()).doesNotContain("at com.").doesNotContain("Exception");
            }
        }
    }

    @Test
    void aBatchOverTheLimitIs413() throws Exception {
        try (JsonServer s = echo(ServerLimits.defaults().withMaxBatch(3)).start()) {
            assertThat(post(s, "/v1/echo", "{\"items\": [1, 2, 3]}").status()).isEqualTo(200);
            Reply r = post(s, "/v1/echo", "{\"items\": [1, 2, 3, 4]}");
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.code()).isEqualTo("batch_too_large");
            assertThat(r.json().path("error").path("message").asText()).isEqualTo(
                    "items has 4 items; this server takes at most 3 per request: send smaller batches");
            // the limit, stated for a client to split its batch (the Python shims do)
            assertThat(r.raw().headers().firstValue("X-Max-Batch-Items")).hasValue("3");
        }
    }

    @Test
    void requestsOverTheConcurrencyLimitWaitThenGet429WithRetryAfter() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (JsonServer s = JsonServer.builder()
                .limits(ServerLimits.defaults().withMaxConcurrentRequests(1).withQueueWait(Duration.ofMillis(200)))
                .route("POST", "/slow", call -> {
                    inside.countDown();
                    release.await();
                    return JsonReply.ok(call.body());
                }).start()) {
            CompletableFuture<Reply> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return post(s, "/slow", "{\"n\": 1}");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
            long t0 = System.nanoTime();
            Reply busy = post(s, "/slow", "{\"n\": 2}");
            assertThat(busy.status()).isEqualTo(429);
            assertThat((System.nanoTime() - t0) / 1e6).isGreaterThanOrEqualTo(190);
            assertThat(busy.code()).isEqualTo("busy");
            assertThat(busy.raw().headers().firstValue("Retry-After")).hasValue("1");
            assertThat(busy.json().path("error").path("type").asText()).isEqualTo("rate_limit_error");
            assertThat(get(s, "/health").status()).as("health is outside the limit").isEqualTo(200);
            release.countDown();
            assertThat(first.get(5, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(post(s, "/slow", "{\"n\": 3}").status()).isEqualTo(200);
        }
    }

    @Test
    void aRoutePastTheDeadlineIsAnswered503AndInterrupted() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        try (JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withRequestDeadline(Duration.ofMillis(300)))
                .route("POST", "/hang", call -> {
                    try {
                        Thread.sleep(FOREVER.toMillis());
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return JsonReply.ok(call.body());
                }).start()) {
            long t0 = System.nanoTime();
            Reply r = post(s, "/hang", "{}");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // the route never returns by itself: the answer is the deadline's, and not before it
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.code()).isEqualTo("deadline_exceeded");
            assertThat(ms).isGreaterThanOrEqualTo(250L);
            assertThat(interrupted.await(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A Jetty handler answering {@code mounted PATH} in plain text, or, on {@code /hang}, waiting until interrupted. */
    private static org.eclipse.jetty.server.Handler mountedHandler(CountDownLatch inside, CountDownLatch interrupted) {
        return new org.eclipse.jetty.server.Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                                  org.eclipse.jetty.util.Callback callback) {
                String path = org.eclipse.jetty.server.Request.getPathInContext(request);
                if (path.endsWith("/hang")) {
                    inside.countDown();
                    try {
                        Thread.sleep(FOREVER.toMillis());
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                    }
                }
                response.setStatus(200);
                response.write(true, java.nio.ByteBuffer.wrap(("mounted " + path).getBytes(StandardCharsets.UTF_8)),
                        callback);
                return true;
            }
        };
    }

    @Test
    void aMountedHandlerIsBehindTheGateThePlacesAndTheDeadline() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        RequestGate keyed = (method, path, headers) -> {
            if (!"Bearer k".equals(headers.apply("Authorization"))) {
                throw new HttpProblem(401, "missing_api_key", "give the key");
            }
            return RequestGate.Admission.ANONYMOUS;
        };
        try (JsonServer s = JsonServer.builder().gate(keyed).limits(ServerLimits.defaults().withMaxConcurrentRequests(1)
                        .withQueueWait(Duration.ZERO).withRequestDeadline(Duration.ofMillis(500)))
                .mount("/raw", mountedHandler(inside, interrupted)).start()) {
            // the gate first, in the server's JSON shape
            Reply noKey = get(s, "/raw/x");
            assertThat(noKey.status()).isEqualTo(401);
            assertThat(noKey.code()).isEqualTo("missing_api_key");
            HttpRequest.Builder withKey = HttpRequest.newBuilder().header("Authorization", "Bearer k");
            Reply ok = send(withKey.copy().uri(URI.create(s.baseUrl() + "/raw/x")).GET().build());
            assertThat(ok.status()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("mounted /raw/x");
            // a mount is a path and what is below it, not a prefix of names
            Reply other = send(withKey.copy().uri(URI.create(s.baseUrl() + "/rawer")).GET().build());
            assertThat(other.code()).isEqualTo("not_found");
            assertThat(other.json().path("error").path("message").asText())
                    .endsWith("this server has /raw, /health and /metrics");
            // the handler holds the one place while it runs: the next request is refused with 429
            CompletableFuture<Reply> hang = CompletableFuture.supplyAsync(() -> {
                try {
                    return send(withKey.copy().uri(URI.create(s.baseUrl() + "/raw/hang")).GET().build());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(inside.await(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
            Reply busy = send(withKey.copy().uri(URI.create(s.baseUrl() + "/raw/x")).GET().build());
            assertThat(busy.status()).isEqualTo(429);
            assertThat(busy.code()).isEqualTo("busy");
            // the deadline interrupts the handler's thread; it answers, and its place is given back
            assertThat(interrupted.await(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(hang.get(GUARD.toSeconds(), TimeUnit.SECONDS).body()).isEqualTo("mounted /raw/hang");
            assertThat(send(withKey.copy().uri(URI.create(s.baseUrl() + "/raw/x")).GET().build()).status())
                    .isEqualTo(200);
            assertThat(get(s, "/health").status()).isEqualTo(200);
        }
    }

    @Test
    void aRouteThatComputesLongerThanTheIdleTimeoutIsNotCut() throws Exception {
        try (JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withIdleTimeout(Duration.ofMillis(200)))
                .route("POST", "/think", call -> {
                    Thread.sleep(700);
                    return JsonReply.ok(call.body());
                }).start()) {
            Reply r = post(s, "/think", "{\"a\": 1}");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().path("a").asInt()).isEqualTo(1);
        }
    }

    @Test
    void aFailingRouteIs500WithoutAStackTraceAndOneLogLine() throws Exception {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        ServerLog log = new ServerLog() {
            @Override
            public void info(String line) {
                lines.add("INFO " + line);
            }

            @Override
            public void warn(String line) {
                lines.add("WARN " + line);
            }
        };
        try (JsonServer s = JsonServer.builder().log(log).route("POST", "/bug", call -> {
            throw new IllegalStateException("boom");
        }).start()) {
            Reply r = post(s, "/bug", "{}");
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.code()).isEqualTo("internal_error");
            assertThat(r.json().path("error").path("type").asText()).isEqualTo("server_error");
            assertThat(r.body()).doesNotContain("boom").doesNotContain("dev.veracity");
            assertThat(lines).containsExactly("WARN POST /bug: IllegalStateException: boom");
        }
    }

    @Test
    void whatJettyRefusesByItselfIsAlsoJson() throws Exception {
        try (JsonServer s = echo(ServerLimits.defaults()).start();
             Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write("NOT A REQUEST LINE\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 400");
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            assertThat(JSON.readTree(body).path("error").path("code").asText()).isEqualTo("bad_http");
        }
    }

    @Test
    void closeFreesThePortAtOnceAndLetsARequestInFlightFinish() throws Exception {
        // A grace far longer than the test's guard: close returns because the request finished, not because it ran out.
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withStopGrace(FOREVER))
                .route("POST", "/work", call -> {
                    inside.countDown();
                    release.await();
                    return JsonReply.ok(call.body());
                }).start();
        int port = s.port();
        CompletableFuture<Reply> inFlight = CompletableFuture.supplyAsync(() -> {
            try {
                return post(s, "/work", "{\"done\": true}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(inside.await(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(s::close);
        waitUntilBindable(port); // while the request still runs
        assertThat(closing).as("close waits for the request in flight").isNotDone();
        assertThat(inFlight).isNotDone();
        release.countDown();
        closing.get(GUARD.toSeconds(), TimeUnit.SECONDS);
        Reply r = inFlight.get(GUARD.toSeconds(), TimeUnit.SECONDS);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("done").asBoolean()).isTrue();
        assertThat(r.raw().headers().firstValue("Connection")).hasValue("close");
        s.close(); // a second close is harmless
    }

    /** Binds {@code port} as soon as it is free (and lets it go), failing after {@link #GUARD}. */
    private static void waitUntilBindable(int port) throws InterruptedException {
        long end = System.nanoTime() + GUARD.toNanos();
        while (true) {
            try (ServerSocket again = new ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress())) {
                assertThat(again.getLocalPort()).isEqualTo(port);
                return;
            } catch (java.io.IOException stillBound) {
                if (System.nanoTime() - end > 0) {
                    throw new AssertionError("port " + port + " still bound after " + GUARD.toSeconds() + " s");
                }
                Thread.sleep(5);
            }
        }
    }

    @Test
    void closeCancelsWhatIsStillRunningAfterTheGracePeriod() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        JsonServer s = JsonServer.builder().limits(ServerLimits.defaults().withStopGrace(Duration.ofMillis(300)))
                .route("POST", "/forever", call -> {
                    inside.countDown();
                    try {
                        Thread.sleep(FOREVER.toMillis());
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return JsonReply.ok(call.body());
                }).start();
        CompletableFuture<Reply> inFlight = CompletableFuture.supplyAsync(() -> {
            try {
                return post(s, "/forever", "{}");
            } catch (Exception e) {
                return new Reply(-1, e.toString(), null);
            }
        });
        assertThat(inside.await(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        // the route would run for ever: close returns only by cancelling it once the 300 ms grace is over
        CompletableFuture.runAsync(s::close).get(GUARD.toSeconds(), TimeUnit.SECONDS);
        assertThat(interrupted.await(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        Reply r = inFlight.get(GUARD.toSeconds(), TimeUnit.SECONDS);
        // the documented answer to a request the stop cancels, which a client retries: not Jetty's 500
        assertThat(r.status()).as(r.body()).isEqualTo(503);
        assertThat(r.code()).isEqualTo("stopping");
        assertThat(r.raw().headers().firstValue("Retry-After")).hasValue("1");
        // an answer written during the stop closes its connection (and keeps it from Jetty's 100 ms stop idle timeout)
        assertThat(r.raw().headers().firstValue("Connection")).hasValue("close");
        assertThat(s.isStopping()).isTrue();
    }
}
