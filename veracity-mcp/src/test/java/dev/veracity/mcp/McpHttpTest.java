package dev.veracity.mcp;

import static dev.veracity.mcp.McpServed.call;
import static dev.veracity.mcp.McpServed.documents;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.methods.march.AppendixC;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MCP SDK's own Java client over streamable HTTP against {@code veracity mcp} on a scripted upstream. */
class McpHttpTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path runs;

    static McpServed served;
    static McpSyncClient client;
    static final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    /** A permit per notification received, by token: what a test waits on. */
    static final java.util.Map<Object, java.util.concurrent.Semaphore> received = new java.util.concurrent.ConcurrentHashMap<>();

    static void receive(McpSchema.ProgressNotification p) {
        progress.add(p);
        arrivals(p.progressToken()).release();
    }

    static java.util.concurrent.Semaphore arrivals(Object token) {
        return received.computeIfAbsent(token, t -> new java.util.concurrent.Semaphore(0));
    }

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(runs.resolve("march-run"));
        Files.writeString(runs.resolve("march-run/summary.json"), "{\"method\": \"march\", \"dataset\": \"hotpotqa\","
                + " \"n\": 2, \"metrics\": {\"em\": 0.5}}");
        served = McpServed.start(runs, false);
        client = served.client(null, McpHttpTest::receive);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (served != null) {
            served.close();
        }
    }

    static JsonNode structured(McpSchema.CallToolResult r) {
        assertThat(r.isError()).as(String.valueOf(r.content())).isFalse();
        return JSON.valueToTree(r.structuredContent());
    }

    static String errorText(McpSchema.CallToolResult r) {
        assertThat(r.isError()).as("an error: " + r.structuredContent()).isTrue();
        return ((McpSchema.TextContent) r.content().getFirst()).text();
    }

    static List<McpSchema.ProgressNotification> progressOf(String token) {
        return progress.stream().filter(p -> token.equals(p.progressToken())).toList();
    }

    /**
     * The token's notifications once {@code expected} of them came. The server sends each before the result, but the
     * client hands notifications to the consumer on threads of its own, so the last may reach it after the result
     * has, and they may reach it in any order. The wait is bounded: a broken server fails the assertion that follows.
     */
    static List<McpSchema.ProgressNotification> progressOf(String token, int expected) throws InterruptedException {
        if (arrivals(token).tryAcquire(expected, 30, java.util.concurrent.TimeUnit.SECONDS)) {
            arrivals(token).release(expected);
        }
        return progressOf(token);
    }

    @Test
    void listsTheFourToolsEachWithInputAndOutputSchemas() {
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrder("verify", "ask", "search", "score");
        for (McpSchema.Tool t : tools) {
            assertThat(t.inputSchema()).as(t.name()).containsKey("properties");
            assertThat(t.outputSchema()).as(t.name()).containsKey("properties");
            assertThat(t.description()).isNotBlank();
        }
        McpSchema.Tool verify = tools.stream().filter(t -> t.name().equals("verify")).findFirst().orElseThrow();
        assertThat(JSON.valueToTree(verify.inputSchema()).get("required").toString()).isEqualTo("[\"question\",\"answer\"]");
    }

    @Test
    void verifyFailsTheAnswerWhoseNumberTheCheckerContradictsAndReportsProgress() throws Exception {
        McpSchema.CallToolResult r = client.callTool(call("verify", Map.of("question", AppendixC.QUESTION,
                "answer", AppendixC.SOLVER_RESPONSE, "documents", documents(McpServed.CHANGED_DOCS)), "verify-1"));
        JsonNode j = structured(r);
        assertThat(j.get("status").asText()).isEqualTo("failed");
        assertThat(j.get("passed").asBoolean()).isFalse();
        assertThat(j.get("claims")).hasSize(5);
        JsonNode fault = j.get("claims").get(3);
        assertThat(fault.get("verdict").asText()).isEqualTo("fault");
        assertThat(fault.get("claimed_answer").asText()).isEqualTo(AppendixC.CLAIMED.get(3));
        assertThat(fault.get("checker_answers")).hasSize(3)
                .allSatisfy(a -> assertThat(a.get("answer").asText()).isEqualTo("80"));
        assertThat(fault.at("/checker_answers/0/evidence").asText()).startsWith("Document-");
        for (int i : new int[] {0, 1, 2, 4}) {
            assertThat(j.at("/claims/" + i + "/verdict").asText()).isEqualTo("confirmed");
        }
        assertThat(j.at("/calls/total").asInt()).isEqualTo(4);
        assertThat(j.at("/documents/source").asText()).isEqualTo("request");
        // one progress notification per model call answered: the Proposer, then three Checker samples
        List<McpSchema.ProgressNotification> p = progressOf("verify-1", 4);
        assertThat(p).hasSize(4);
        assertThat(p).extracting(McpSchema.ProgressNotification::progress).containsExactlyInAnyOrder(1.0, 2.0, 3.0, 4.0);
    }

    @Test
    void verifyTakesTheSamplesFromOptionsUnlessTheTopLevelFieldSaysOtherwise() {
        JsonNode five = structured(client.callTool(call("verify", Map.of("question", AppendixC.QUESTION,
                "answer", AppendixC.SOLVER_RESPONSE, "documents", documents(McpServed.CHANGED_DOCS),
                "options", Map.of("samples", 5)), null)));
        assertThat(five.get("checker_samples").asInt()).isEqualTo(5);
        assertThat(five.at("/claims/3/checker_answers")).hasSize(5);
        assertThat(five.at("/calls/checker").asInt()).isEqualTo(5);
        JsonNode same = structured(client.callTool(call("verify", Map.of("question", AppendixC.QUESTION,
                "answer", AppendixC.SOLVER_RESPONSE, "documents", documents(McpServed.CHANGED_DOCS),
                "samples", 2, "options", Map.of("samples", "2")), null)));
        assertThat(same.get("checker_samples").asInt()).isEqualTo(2);
        assertThat(errorText(client.callTool(call("verify", Map.of("question", AppendixC.QUESTION,
                "answer", AppendixC.SOLVER_RESPONSE, "documents", documents(McpServed.CHANGED_DOCS),
                "samples", 3, "options", Map.of("samples", 5)), null))))
                .isEqualTo("'samples' is 3 but options.samples is 5: give one of them");
    }

    @Test
    void askAnswersWithAMethodAndReportsItsVerdictCallsAndProgress() throws Exception {
        JsonNode j = structured(client.callTool(call("ask", Map.of("question", AppendixC.QUESTION, "method", "march",
                "documents", documents(AppendixC.DOCUMENTS)), "ask-1")));
        assertThat(j.get("answer").asText()).isNotBlank();
        JsonNode v = j.get("veracity");
        assertThat(v.get("method").asText()).isEqualTo("march");
        assertThat(v.at("/verification/verdict").asText()).isEqualTo("passed");
        assertThat(v.at("/verification/claims").asInt()).isEqualTo(5);
        assertThat(v.at("/documents/source").asText()).isEqualTo("request");
        int calls = v.at("/calls/count").asInt();
        assertThat(calls).isEqualTo(5); // Solver, Proposer, three Checker samples
        assertThat(progressOf("ask-1", calls)).hasSize(calls);

        JsonNode failed = structured(client.callTool(call("ask", Map.of("question", AppendixC.QUESTION,
                "method", "march", "documents", documents(McpServed.CHANGED_DOCS)), null)));
        assertThat(failed.at("/veracity/verification/verdict").asText()).isEqualTo("failed");
    }

    @Test
    void searchRanksTheIndexsPassages() {
        JsonNode j = structured(client.callTool(call("search", Map.of("query", "Where is the Eiffel Tower located?",
                "k", 2), null)));
        assertThat(j.get("passages")).hasSize(2);
        assertThat(j.at("/passages/0/id").asText()).isEqualTo("p1");
        assertThat(j.at("/passages/0/rank").asInt()).isEqualTo(1);
        assertThat(j.at("/passages/0/score").asDouble()).isGreaterThan(j.at("/passages/1/score").asDouble());
    }

    @Test
    void scoreAppliesTheBenchmarkMetric() {
        JsonNode em = structured(client.callTool(call("score", Map.of("prediction", "the Eiffel Tower",
                "gold", List.of("Eiffel Tower", "La tour Eiffel"), "metric", "em"), null)));
        assertThat(em.get("score").asDouble()).isEqualTo(1.0);
        JsonNode f1 = structured(client.callTool(call("score", Map.of("prediction", "Paris France",
                "gold", "Paris", "metric", "f1"), null)));
        assertThat(f1.get("score").asDouble()).isEqualTo(2.0 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void badCallsAreToolErrorsWithTheReasonAndTheNextCallStillWorks() {
        assertThat(errorText(client.callTool(call("ask", Map.of("question", "q", "method", "gpt-4o",
                "documents", List.of("a document")), null))))
                .startsWith("unknown method 'gpt-4o'").contains("madam-rag").doesNotContain("\n");
        // a known method on an upstream model the server does not allow: the reason is the model, not the method
        assertThat(errorText(client.callTool(call("ask", Map.of("question", "q", "method", "march@other-model",
                "documents", List.of("a document")), null))))
                .doesNotContain("unknown method").contains("other-model").contains("not served here").contains("sim-model");
        assertThat(errorText(client.callTool(call("ask", Map.of("question", "q", "method", "no-such@sim-model",
                "documents", List.of("a document")), null)))).startsWith("unknown method 'no-such'");
        assertThat(errorText(client.callTool(call("ask", Map.of("question", "q", "method", "standard-rag"), null))))
                .startsWith("missing documents").contains("--index");
        assertThat(errorText(client.callTool(call("verify", Map.of("question", "q", "answer", "42"), null))))
                .startsWith("missing documents");
        assertThat(errorText(client.callTool(call("score", Map.of("prediction", "a", "gold", "a", "metric", "bleu"),
                null)))).contains("unknown metric 'bleu'").contains("f1");
        assertThat(errorText(client.callTool(call("ask", Map.of("question", "q", "method", "march",
                "documents", List.of("d"), "options", Map.of("samples", "many")), null)))).contains("samples");
        // ToolArgs' reasons are what users see, also where the input schema already says it (enum, minimum, required)
        assertThat(errorText(client.callTool(call("search", Map.of("query", "x", "mode", "fuzzy"), null))))
                .isEqualTo("'mode' must be one of bm25, dense, hybrid, was 'fuzzy'");
        assertThat(errorText(client.callTool(call("verify", Map.of("question", "q", "answer", "42",
                "documents", List.of("d"), "samples", 0), null)))).isEqualTo("'samples' must be a whole number from 1"
                + " to 16, was 0");
        assertThat(errorText(client.callTool(call("verify", Map.of("answer", "42", "documents", List.of("d")), null))))
                .contains("'question'");
        // the server still answers
        assertThat(structured(client.callTool(call("score", Map.of("prediction", "a", "gold", "a", "metric", "em"),
                null))).get("score").asDouble()).isEqualTo(1.0);
    }

    @Test
    void aKeyOverItsRequestsInFlightGets429WhileItsEventStreamIsOpen() throws Exception {
        try (McpServed keyed = McpServed.start(null, true, s -> s.withMaxInFlightPerKey(1))) {
            HttpClient http = HttpClient.newHttpClient();
            String url = keyed.server.url();
            HttpResponse<String> init = http.send(post(url, null, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":"
                    + " \"initialize\", \"params\": {\"protocolVersion\": \"2025-06-18\", \"capabilities\": {},"
                    + " \"clientInfo\": {\"name\": \"raw\", \"version\": \"1\"}}}"), HttpResponse.BodyHandlers.ofString());
            assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
            String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
            // the session's event stream: open until closed (its headers come with its first event), holding the key's
            // one place once the server has admitted it
            HttpRequest openStream = HttpRequest.newBuilder(URI.create(url))
                    .header("Authorization", "Bearer " + McpServed.KEY).header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", session).GET().build();
            var stream = http.sendAsync(openStream, HttpResponse.BodyHandlers.ofInputStream());
            HttpResponse<String> over = null;
            for (int tries = 0; tries < 500 && (over == null || over.statusCode() != 429); tries++) {
                Thread.sleep(10); // until the stream has reached the server: a guard, not a measure
                if (stream.isDone()) {
                    // the stream came while a ping held the key's one place and was refused itself: open it again
                    stream = http.sendAsync(openStream, HttpResponse.BodyHandlers.ofInputStream());
                    continue;
                }
                over = http.send(post(url, session, "{\"jsonrpc\": \"2.0\", \"id\": " + (tries + 2)
                        + ", \"method\": \"ping\"}"), HttpResponse.BodyHandlers.ofString());
            }
            assertThat(over.statusCode()).as(over.body()).isEqualTo(429);
            assertThat(over.body()).contains("too_many_concurrent_requests");
            assertThat(over.headers().firstValue("Retry-After")).contains("1");
            stream.cancel(true);
        }
    }

    @Test
    void aToolCallPastTheDeadlineIsCancelledAndTheServerStillAnswers() throws Exception {
        // the upstream takes 30 s to answer; the server's deadline is 1 s: the call ends as a tool error, not after 30 s
        try (McpServed slow = McpServed.start(null, false, s -> s.withLimits(s.limits()
                        .withRequestDeadline(java.time.Duration.ofSeconds(1))),
                b -> b.latency(java.time.Duration.ofSeconds(30), java.time.Duration.ZERO));
             McpSyncClient c = slow.client(null, p -> { })) {
            String reason = errorText(c.callTool(call("ask", Map.of("question", "Where is the Eiffel Tower?",
                    "method", "standard-rag", "documents", List.of("The Eiffel Tower is in Paris.")), null)));
            assertThat(reason).startsWith("cancelled").contains("deadline");
            assertThat(structured(c.callTool(call("score", Map.of("prediction", "a", "gold", "a", "metric", "em"),
                    null))).get("score").asDouble()).isEqualTo(1.0);
        }
    }

    @Test
    void withoutKeysARequestFromAnotherSiteIsRefusedInJson() throws Exception {
        // a web page whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own Host and Origin
        HttpClient http = HttpClient.newHttpClient();
        String init = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {\"protocolVersion\":"
                + " \"2025-06-18\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"raw\", \"version\": \"1\"}}}";
        HttpResponse<String> foreignOrigin = http.send(HttpRequest.newBuilder(URI.create(served.server.url()))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.ofString(init)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(foreignOrigin.statusCode()).isEqualTo(403);
        assertThat(foreignOrigin.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(foreignOrigin.body()).contains("Origin").doesNotContain("<html");
        Raw foreignHost = rawRequest(served.server.port(), "POST /mcp HTTP/1.1\r\nHost: evil.example:"
                + served.server.port() + "\r\nContent-Type: application/json\r\nAccept: application/json,"
                + " text/event-stream\r\nContent-Length: " + init.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                + "\r\nConnection: close\r\n\r\n" + init);
        assertThat(foreignHost.statusCode()).isEqualTo(421);
        // this machine's own page is let through
        HttpResponse<String> local = http.send(HttpRequest.newBuilder(URI.create(served.server.url()))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Origin", "http://localhost:3000").POST(HttpRequest.BodyPublishers.ofString(init)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(local.statusCode()).as(local.body()).isEqualTo(200);
    }

    /** One request written as is on a socket (the JDK's client sets Host itself), answered status and body. */
    private static Raw rawRequest(int port, String request) throws java.io.IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            int status = Integer.parseInt(answer.split(" ", 3)[1]);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            return new Raw(status, body);
        }
    }

    private record Raw(int statusCode, String body) {
    }

    @Test
    void anUnknownSessionIsAJsonErrorNotAnHtmlPage() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(served.server.url()))
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", "no-such-session").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(r.body()).contains("\"error\"").doesNotContain("<html");
        assertThat(r.headers().firstValue("X-Powered-By")).isEmpty();
    }

    private static HttpRequest post(String url, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + McpServed.KEY)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }

    @Test
    void anUpstreamThatIsDownIsAToolErrorAndToolsWithoutItStillWork() throws Exception {
        try (McpServed down = McpServed.start(null, false)) {
            down.sim.close();
            try (McpSyncClient c = down.client(null, p -> { })) {
                String reason = errorText(c.callTool(call("ask", Map.of("question", "Where is the Eiffel Tower?",
                        "method", "standard-rag", "documents", List.of("The Eiffel Tower is in Paris.")), null)));
                assertThat(reason).containsIgnoringCase("upstream").doesNotContain("\n");
                assertThat(structured(c.callTool(call("score", Map.of("prediction", "a", "gold", "a", "metric", "em"),
                        null))).get("score").asDouble()).isEqualTo(1.0);
            }
        }
    }

    @Test
    void runSummariesAreListedAndReadable() {
        List<McpSchema.Resource> resources = client.listResources().resources();
        assertThat(resources).extracting(McpSchema.Resource::uri).containsExactly("veracity://runs/march-run/summary.json");
        assertThat(resources.getFirst().description()).contains("march").contains("hotpotqa");
        McpSchema.ReadResourceResult read = client.readResource(resources.getFirst());
        assertThat(((McpSchema.TextResourceContents) read.contents().getFirst()).text()).contains("\"em\": 0.5");
    }

    @Test
    void withKeysARequestWithoutAKeyGets401AndAClientWithTheKeyWorks() throws Exception {
        try (McpServed keyed = McpServed.start(null, true)) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(keyed.server.url()))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).contains("Bearer");
            assertThat(r.body()).contains("missing_api_key");
            assertThat(r.headers().firstValue("Server")).isEmpty();
            for (String method : List.of("GET", "DELETE")) {
                HttpResponse<String> other = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(keyed.server.url())).header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", "any").method(method, HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(other.statusCode()).as(method).isEqualTo(401);
            }
            try (McpSyncClient c = keyed.client(McpServed.KEY, p -> { })) {
                assertThat(c.listTools().tools()).hasSize(4);
            }
        }
    }
}
