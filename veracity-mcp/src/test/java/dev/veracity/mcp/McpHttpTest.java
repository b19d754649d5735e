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

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(runs.resolve("march-run"));
        Files.writeString(runs.resolve("march-run/summary.json"), "{\"method\": \"march\", \"dataset\": \"hotpotqa\","
                + " \"n\": 2, \"metrics\": {\"em\": 0.5}}");
        served = McpServed.start(runs, false);
        client = served.client(null, progress::add);
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
     * client hands notifications to the consumer on a thread of its own, so the last may reach it after the result
     * has; the wait (bounded: a broken server fails the assertion that follows) is not timed.
     */
    static List<McpSchema.ProgressNotification> progressOf(String token, int expected) {
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (progressOf(token).size() < expected && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
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
    void verifyFailsTheAnswerWhoseNumberTheCheckerContradictsAndReportsProgress() {
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
        assertThat(p).extracting(McpSchema.ProgressNotification::progress).containsExactly(1.0, 2.0, 3.0, 4.0);
    }

    @Test
    void askAnswersWithAMethodAndReportsItsVerdictCallsAndProgress() {
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
        assertThat(errorText(client.callTool(call("ask", Map.of("question", "q", "method", "standard-rag"), null))))
                .startsWith("missing documents").contains("--index");
        assertThat(errorText(client.callTool(call("verify", Map.of("question", "q", "answer", "42"), null))))
                .startsWith("missing documents");
        assertThat(errorText(client.callTool(call("score", Map.of("prediction", "a", "gold", "a", "metric", "bleu"),
                null)))).contains("unknown metric 'bleu'").contains("f1");
        assertThat(errorText(client.callTool(call("ask", Map.of("question", "q", "method", "march",
                "documents", List.of("d"), "options", Map.of("samples", "many")), null)))).contains("samples");
        assertThat(errorText(client.callTool(call("search", Map.of("query", "x", "mode", "fuzzy"), null))))
                .isNotBlank();
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
            var stream = http.sendAsync(HttpRequest.newBuilder(URI.create(url))
                    .header("Authorization", "Bearer " + McpServed.KEY).header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", session).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            HttpResponse<String> over = null;
            for (int tries = 0; tries < 500 && (over == null || over.statusCode() != 429); tries++) {
                Thread.sleep(10); // until the stream has reached the server: a guard, not a measure
                over = http.send(post(url, session, "{\"jsonrpc\": \"2.0\", \"id\": " + (tries + 2)
                        + ", \"method\": \"ping\"}"), HttpResponse.BodyHandlers.ofString());
            }
            assertThat(over.statusCode()).as(over.body()).isEqualTo(429);
            assertThat(over.body()).contains("too_many_concurrent_requests");
            assertThat(over.headers().firstValue("Retry-After")).contains("1");
            stream.cancel(true);
        }
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
            try (McpSyncClient c = keyed.client(McpServed.KEY, p -> { })) {
                assertThat(c.listTools().tools()).hasSize(4);
            }
        }
    }
}
