package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.qa.Document;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code veracity mcp --stdio} as a desktop host runs it: the MCP SDK's stdio client launches the CLI in a JVM of its
 * own (the tests' class path) and talks to it over stdin and stdout, with the simulator scripted as the paper's model
 * answers MARCH's agents (Appendix C) as the upstream. A stray line on stdout would break the protocol.
 */
class McpStdioTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path runs;

    @Test
    void aStdioClientListsToolsVerifiesWithProgressSurvivesABadCallAndReadsRunSummaries() throws Exception {
        Files.createDirectories(runs.resolve("r1"));
        Files.writeString(runs.resolve("r1/summary.json"), "{\"method\": \"standard-rag\", \"dataset\": \"nq\"}");
        List<Document> changed = new ArrayList<>(AppendixC.DOCUMENTS);
        changed.set(7, Document.of("8", "", changed.get(7).text().replace("89%", "80%")));
        List<String> stderr = new CopyOnWriteArrayList<>();
        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch fourOfP1 = new java.util.concurrent.CountDownLatch(4);
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules().toArray(Rule[]::new)).build())) {
            ServerParameters params = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java")
                            .toString())
                    .args("-cp", System.getProperty("java.class.path"), VeracityCli.class.getName(), "mcp", "--stdio",
                            "--upstream-base-url", sim.baseUrl(), "--model", "sim-model", "--runs", runs.toString())
                    .build();
            StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
            transport.setStdErrorHandler(stderr::add);
            try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                    .initializationTimeout(Duration.ofSeconds(60)).progressConsumer(p -> {
                        progress.add(p);
                        if ("p1".equals(p.progressToken())) {
                            fourOfP1.countDown();
                        }
                    }).build()) {
                client.initialize();
                assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
                        .containsExactlyInAnyOrder("verify", "ask", "search", "score");

                McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("verify", Map.of(
                        "question", AppendixC.QUESTION, "answer", AppendixC.SOLVER_RESPONSE,
                        "documents", changed.stream().map(d -> Map.of("id", d.id(), "text", d.text())).toList()),
                        Map.of("progressToken", "p1")));
                assertThat(r.isError()).as(String.valueOf(r.content())).isFalse();
                JsonNode v = JSON.valueToTree(r.structuredContent());
                assertThat(v.get("status").asText()).isEqualTo("failed");
                assertThat(v.at("/claims/3/verdict").asText()).isEqualTo("fault");
                assertThat(v.at("/claims/3/checker_answers/0/answer").asText()).isEqualTo("80");
                // the client hands notifications on a thread of its own: the last may come after the result (the wait
                // is bounded: a broken server fails here, it does not hang)
                assertThat(fourOfP1.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                assertThat(progress).filteredOn(p -> "p1".equals(p.progressToken())).hasSize(4);

                McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("ask",
                        Map.of("question", "q", "method", "no-such-method", "documents", List.of("d"))));
                assertThat(bad.isError()).isTrue();
                assertThat(((McpSchema.TextContent) bad.content().getFirst()).text())
                        .startsWith("unknown method 'no-such-method'");

                McpSchema.CallToolResult em = client.callTool(new McpSchema.CallToolRequest("score",
                        Map.of("prediction", "Paris", "gold", List.of("paris"), "metric", "em")));
                assertThat(JSON.valueToTree(em.structuredContent()).get("score").asDouble()).isEqualTo(1.0);

                List<McpSchema.Resource> resources = client.listResources().resources();
                assertThat(resources).extracting(McpSchema.Resource::uri)
                        .containsExactly("veracity://runs/r1/summary.json");
            }
        }
        assertThat(String.join("\n", stderr)).contains("veracity mcp: serving MCP on stdio");
    }

    @Test
    void withoutATransportTheErrorSaysWhichToGive() {
        CliRun.Result r = CliRun.run("mcp", "--llm-base-url", "http://127.0.0.1:9/v1", "--model", "m");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("veracity mcp: give --stdio (a desktop host launches veracity mcp) or"
                + " --port N (streamable HTTP at /mcp)");
    }

    @Test
    void withStdioTheHttpServersFlagsAreAnErrorNotIgnored() {
        CliRun.Result r = CliRun.run("mcp", "--stdio", "--host", "0.0.0.0", "--rate-limit", "10",
                "--llm-base-url", "http://127.0.0.1:9/v1", "--model", "m");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("veracity mcp: --host, --rate-limit are options of the HTTP server")
                .contains("--stdio").doesNotContain("\n");
    }

    @Test
    void overHttpWithoutKeysAnAddressOtherThanThisMachineIsRefused() {
        CliRun.Result r = CliRun.run("mcp", "--port", "0", "--host", "0.0.0.0",
                "--llm-base-url", "http://127.0.0.1:9/v1", "--model", "m");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("veracity mcp: no API keys are configured").contains("--api-keys-file")
                .doesNotContain("\n");
    }
}
