package dev.veracity.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The gate before the body, prefix routes, reply and problem headers, an error's param. */
class RequestGateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static HttpResponse<String> get(JsonServer s, String path, String auth) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.baseUrl() + path)).GET();
        if (auth != null) {
            b.header("Authorization", auth);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Lets "Bearer good" in as key-1 and counts the admissions given back. */
    private static final class KeyGate implements RequestGate {
        final AtomicInteger open = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public Admission admit(String method, String path, java.util.function.Function<String, String> headers) {
            if (!"Bearer good".equals(headers.apply("authorization"))) {
                throw new HttpProblem(401, "invalid_api_key", "no valid key").withHeader("WWW-Authenticate", "Bearer");
            }
            open.incrementAndGet();
            return new Admission() {
                @Override
                public String principal() {
                    return "key-1";
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                }
            };
        }
    }

    @Test
    void theGateRefusesBeforeTheBodyIsReadAndTheRouteSeesWhoWasAdmitted() throws Exception {
        KeyGate gate = new KeyGate();
        AtomicInteger ran = new AtomicInteger();
        try (JsonServer s = JsonServer.builder().gate(gate).route("GET", "/who", call -> {
            ran.incrementAndGet();
            return JsonReply.ok(JSON.createObjectNode().put("principal", call.principal()));
        }).route("POST", "/upload", call -> {
            ran.incrementAndGet();
            return JsonReply.ok(call.body());
        }).start()) {
            HttpResponse<String> refused = get(s, "/who", "Bearer bad");
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
            assertThat(JSON.readTree(refused.body()).path("error").path("code").asText()).isEqualTo("invalid_api_key");

            HttpResponse<String> ok = get(s, "/who", "Bearer good");
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(ok.body()).path("principal").asText()).isEqualTo("key-1");
            assertThat(gate.open).hasValue(1);
            // given back once the exchange is over, which is just after the client has its answer: wait for it
            long until = System.nanoTime() + 5_000_000_000L;
            while (gate.closed.get() < 1 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(gate.closed).as("the admission is given back once answered").hasValue(1);

            // a body announced as 100 MB without a key: answered at once, before a byte of it is sent
            try (Socket socket = new Socket("127.0.0.1", s.port())) {
                socket.setSoTimeout(5000);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000"
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] head = new byte[12];
                assertThat(in.readNBytes(head, 0, 12)).isEqualTo(12);
                assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 401");
            }
            assertThat(get(s, "/health", null).statusCode()).as("health passes no gate").isEqualTo(200);
            assertThat(get(s, "/metrics", null).statusCode()).isEqualTo(200);
            assertThat(ran).hasValue(1);
        }
    }

    @Test
    void aRefusalIsLoggedOnOneLineWhateverTheClientPutInIt() throws Exception {
        List<String> lines = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ServerLog log = new ServerLog() {
            @Override
            public void info(String line) {
                lines.add(line);
            }

            @Override
            public void warn(String line) {
                lines.add(line);
            }
        };
        try (JsonServer s = JsonServer.builder().log(log).route("POST", "/r", call -> {
            throw HttpProblem.badRequest("unknown option '" + call.body().path("key").asText() + "'");
        }).start()) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(s.baseUrl() + "/r"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"key\": \"x\\n2026-01-01T00:00:00 INFO forged\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(400);
            // the server logs after the reply has gone out: wait for the line rather than race it
            long until = System.nanoTime() + 5_000_000_000L;
            while (lines.isEmpty() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            Thread.sleep(50); // a second line, if one were written, would have come by now
            assertThat(lines).hasSize(1);
            assertThat(lines.getFirst()).doesNotContain("\n").contains("forged");
        }
    }

    @Test
    void prefixRoutesTakeTheRestOfThePathAndExactRoutesWin() throws Exception {
        try (JsonServer s = JsonServer.builder()
                .route("GET", "/v1/models", call -> JsonReply.ok(JSON.createObjectNode().put("list", true)))
                .routePrefix("GET", "/v1/models/", call -> JsonReply.ok(JSON.createObjectNode()
                        .put("id", call.path().substring("/v1/models/".length()))).withHeader("X-Model", "yes"))
                .start()) {
            HttpResponse<String> one = get(s, "/v1/models/madam-rag+march", null);
            assertThat(one.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(one.body()).path("id").asText()).isEqualTo("madam-rag+march");
            assertThat(one.headers().firstValue("X-Model")).hasValue("yes");
            assertThat(JSON.readTree(get(s, "/v1/models", null).body()).path("list").asBoolean()).isTrue();
            HttpResponse<String> none = get(s, "/v1/models/", null);
            assertThat(none.statusCode()).as("the prefix alone is no path of it").isEqualTo(404);
            assertThat(none.body()).contains("/v1/models/...");
            assertThat(get(s, "/metrics", null).body()).contains("route=\"/v1/models/*\"");
        }
    }

    @Test
    void aProblemCarriesItsHeadersAndTheFieldAtFaultAndHeaderValuesStayPrintableAscii() throws Exception {
        try (JsonServer s = JsonServer.builder()
                .route("GET", "/limited", call -> {
                    throw new HttpProblem(429, "rate_limited", "slow down").withHeader("Retry-After", "7");
                })
                .route("GET", "/bad", call -> {
                    throw HttpProblem.badRequest("n must be 1").withParam("n");
                })
                .route("GET", "/header", call -> JsonReply.ok(JSON.createObjectNode()).withHeader("X-Answer", "caf\u00e9\r\nX-Evil: 1"))
                .start()) {
            HttpResponse<String> limited = get(s, "/limited", null);
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(limited.headers().firstValue("Retry-After")).hasValue("7");
            JsonNode bad = JSON.readTree(get(s, "/bad", null).body()).path("error");
            assertThat(bad.path("param").asText()).isEqualTo("n");
            assertThat(bad.path("type").asText()).isEqualTo("invalid_request_error");
            HttpResponse<String> header = get(s, "/header", null);
            assertThat(header.headers().firstValue("X-Answer")).hasValue("caf???X-Evil: 1");
            assertThat(header.headers().firstValue("X-Evil")).isEmpty();
        }
    }
}
