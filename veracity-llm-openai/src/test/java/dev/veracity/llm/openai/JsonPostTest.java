package dev.veracity.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.veracity.config.ApiKey;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The transport: what a failed exchange becomes, what is sent, and that a call never outlives its timeout. */
class JsonPostTest {

    /** A server answering every request with {@code status}, {@code body} and {@code headers}; records the request. */
    private static HttpServer answering(int status, String body, Map<String, String> headers,
                                        AtomicReference<com.sun.net.httpserver.Headers> seen) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            if (seen != null) {
                seen.set(ex.getRequestHeaders());
            }
            headers.forEach(ex.getResponseHeaders()::add);
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        });
        server.start();
        return server;
    }

    private static String url(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    @Test
    void errorStatusesBecomeTypedErrorsWithTheServersOwnWords() throws Exception {
        record Case(int status, String body, Map<String, String> headers, ErrorKind kind, String words, Duration retryAfter) {
        }
        List<Case> cases = List.of(
                new Case(400, "{\"error\":{\"message\":\"n must be 1 for this model\",\"type\":\"invalid_request_error\"}}",
                        Map.of(), ErrorKind.BAD_REQUEST, "n must be 1 for this model", null),
                new Case(404, "{\"object\":\"error\",\"message\":\"The model `x` does not exist.\",\"code\":404}",
                        Map.of(), ErrorKind.BAD_REQUEST, "The model `x` does not exist.", null),
                new Case(422, "{\"detail\":[{\"loc\":[\"body\",\"messages\"],\"msg\":\"field required\"}]}",
                        Map.of(), ErrorKind.BAD_REQUEST, "[{\"loc\":[\"body\",\"messages\"],\"msg\":\"field required\"}]", null),
                new Case(401, "{\"error\":\"invalid api key\"}", Map.of(), ErrorKind.AUTHENTICATION, "invalid api key", null),
                new Case(429, "{\"error\":{\"message\":\"slow down\"}}", Map.of("Retry-After", "2"),
                        ErrorKind.RATE_LIMITED, "slow down", Duration.ofSeconds(2)),
                new Case(429, "", Map.of("retry-after-ms", "250", "Retry-After", "9"), ErrorKind.RATE_LIMITED,
                        "(no message)", Duration.ofMillis(250)),
                new Case(503, "<html>\n<body>Service\n  Unavailable</body></html>", Map.of(), ErrorKind.SERVER_ERROR,
                        "<html> <body>Service Unavailable</body></html>", null),
                new Case(502, "x".repeat(5_000), Map.of(), ErrorKind.SERVER_ERROR, "x".repeat(500) + "...", null));
        for (Case c : cases) {
            HttpServer server = answering(c.status(), c.body(), c.headers(), null);
            try (JsonPost post = new JsonPost(url(server), null, Map.of(), Duration.ofSeconds(5))) {
                assertThatThrownBy(() -> post.post("/chat/completions", "{}".getBytes(), Duration.ofSeconds(5)))
                        .isInstanceOfSatisfying(LlmException.class, e -> {
                            assertThat(e.kind()).as(c.body()).isEqualTo(c.kind());
                            assertThat(e.httpStatus()).hasValue(c.status());
                            assertThat(e.getMessage()).isEqualTo("HTTP " + c.status() + " from " + url(server) + ": "
                                    + c.words());
                            assertThat(e.retryAfter()).isEqualTo(java.util.Optional.ofNullable(c.retryAfter()));
                        });
            } finally {
                server.stop(0);
            }
        }
    }

    @Test
    void theKeyIsSentAsABearerTokenOnlyWhenThereIsOneAndTheBodyIsJson() throws Exception {
        AtomicReference<com.sun.net.httpserver.Headers> seen = new AtomicReference<>();
        HttpServer server = answering(200, "{}", Map.of(), seen);
        try {
            try (JsonPost post = new JsonPost(url(server), null, Map.of("X-Route", "a"), Duration.ofSeconds(5))) {
                assertThat(new String(post.post("/x", "{}".getBytes(), Duration.ofSeconds(5)))).isEqualTo("{}");
            }
            assertThat(seen.get().containsKey("Authorization")).isFalse();
            assertThat(seen.get().getFirst("Content-Type")).isEqualTo("application/json");
            assertThat(seen.get().getFirst("X-Route")).isEqualTo("a");
            try (JsonPost post = new JsonPost(url(server), ApiKey.of("sk-test-123"), Map.of(), Duration.ofSeconds(5))) {
                post.post("/x", "{}".getBytes(), Duration.ofSeconds(5));
            }
            assertThat(seen.get().getFirst("Authorization")).isEqualTo("Bearer sk-test-123");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aHeaderTheHttpClientSetsItselfIsRefusedWhenTheBackendIsBuilt() {
        assertThatThrownBy(() -> OpenAiCompatibleBackend.builder().header("Content-Length", "3"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'Content-Length'");
        assertThat(JsonPost.checkHeader(" X-Tenant ")).isEqualTo("X-Tenant");
    }

    @Test
    void aBodyThatStallsAfterItsHeadersEndsInATimeoutAtTheCallsLimit() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            CompletableFuture.runAsync(() -> stallAfterHeaders(server), r -> Thread.ofVirtual().start(r));
            // the body stalls for ten minutes: only the call's 600 ms limit can end it within the test's 60 s guard
            try (JsonPost post = new JsonPost("http://127.0.0.1:" + server.getLocalPort() + "/v1", null, Map.of(),
                    Duration.ofSeconds(5))) {
                CompletableFuture<Throwable> failed = CompletableFuture.supplyAsync(() -> {
                    try {
                        post.post("/chat/completions", "{}".getBytes(), Duration.ofMillis(600));
                        return null;
                    } catch (Throwable t) {
                        return t;
                    }
                });
                assertThat(failed.get(60, TimeUnit.SECONDS)).isInstanceOfSatisfying(LlmException.class,
                        e -> assertThat(e.kind()).isEqualTo(ErrorKind.TIMEOUT));
            }
        }
    }

    @Test
    void anInterruptedCallerCancelsTheExchangeAndTheServerSeesTheConnectionClose() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            CountDownLatch requested = new CountDownLatch(1);
            CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(() -> holdUntilClosed(server, requested),
                    r -> Thread.ofVirtual().start(r));
            try (JsonPost post = new JsonPost("http://127.0.0.1:" + server.getLocalPort() + "/v1", null, Map.of(),
                    Duration.ofSeconds(30))) {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread caller = Thread.ofVirtual().start(() -> {
                    try {
                        post.post("/chat/completions", "{}".getBytes(), Duration.ofSeconds(30));
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                });
                assertThat(requested.await(10, TimeUnit.SECONDS)).isTrue();
                caller.interrupt();
                caller.join(Duration.ofSeconds(5));
                assertThat(caller.isAlive()).isFalse();
                assertThat(failure.get()).isInstanceOfSatisfying(LlmException.class,
                        e -> assertThat(e.kind()).isEqualTo(ErrorKind.CANCELLED));
                assertThat(closed.get(10, TimeUnit.SECONDS)).as("the server saw the client go").isTrue();
            }
        }
    }

    @Test
    void aRefusedConnectionIsAConnectionError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (JsonPost post = new JsonPost("http://127.0.0.1:" + port + "/v1", null, Map.of(), Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> post.post("/chat/completions", "{}".getBytes(), Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(LlmException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.CONNECTION);
                        assertThat(e.getMessage()).startsWith("connection to http://127.0.0.1:" + port + "/v1 ")
                                .doesNotContain("\n");
                    });
        }
    }

    /** Reads a request, answers its headers with a body length it never sends. */
    private static void stallAfterHeaders(ServerSocket server) {
        try (Socket s = server.accept()) {
            readRequest(s.getInputStream());
            s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"choi"
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            Thread.sleep(Duration.ofMinutes(10));
        } catch (Exception ignored) {
            // the client closed the connection
        }
    }

    /** Reads a request and never answers; true once the client closes the connection. */
    private static boolean holdUntilClosed(ServerSocket server, CountDownLatch requested) {
        try (Socket s = server.accept()) {
            s.setSoTimeout(20_000);
            InputStream in = s.getInputStream();
            readRequest(in);
            requested.countDown();
            return in.read() < 0;
        } catch (java.net.SocketException reset) {
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * A client of a plain-http server builds no TLS of the JDK's default (which reads the whole trust store): its
     * context trusts no certificate, so it could never be led to trust a server; an https client keeps the default.
     * The http client still calls its server.
     */
    @Test
    void aPlainHttpClientSkipsTheDefaultTlsContextAndHttpsKeepsIt() throws Exception {
        HttpServer server = answering(200, "{\"ok\":true}", Map.of(), null);
        try (JsonPost plain = new JsonPost(url(server), null, Map.of(), Duration.ofSeconds(5));
             JsonPost tls = new JsonPost("https://127.0.0.1:1/v1", null, Map.of(), Duration.ofSeconds(5))) {
            assertThat(plain.sslContext()).isSameAs(PlainHttp.noTls()).isNotSameAs(javax.net.ssl.SSLContext.getDefault());
            assertThat(new String(plain.post("/chat/completions", "{}".getBytes(StandardCharsets.UTF_8),
                    Duration.ofSeconds(5)), StandardCharsets.UTF_8)).isEqualTo("{\"ok\":true}");
            assertThat(tls.sslContext()).isSameAs(javax.net.ssl.SSLContext.getDefault());
        } finally {
            server.stop(0);
        }
        PlainHttp.TrustsNothing trust = new PlainHttp.TrustsNothing();
        assertThatThrownBy(() -> trust.checkServerTrusted(new java.security.cert.X509Certificate[0], "RSA"))
                .isInstanceOf(java.security.cert.CertificateException.class);
        assertThat(trust.getAcceptedIssuers()).isEmpty();
    }

    /**
     * Closing ends the HTTP client's threads before it returns: its selector thread, left waiting in native code, held a
     * process's exit back (the JVM waits up to 0.3 s for such threads).
     */
    @Test
    void closingEndsTheClientsThreadsBeforeItReturns() throws Exception {
        HttpServer server = answering(200, "{}", Map.of(), null);
        try {
            JsonPost post = new JsonPost(url(server), null, Map.of(), Duration.ofSeconds(5));
            post.post("/chat/completions", "{}".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5));
            post.close();
            assertThat(post.terminated()).isTrue();
        } finally {
            server.stop(0);
        }
    }

    /** Reads a request head and its Content-Length of body. */
    private static void readRequest(InputStream in) throws java.io.IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return;
            }
            head.append((char) c);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        in.readNBytes(length);
    }
}
