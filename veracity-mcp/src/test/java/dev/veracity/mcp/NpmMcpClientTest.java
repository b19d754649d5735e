package dev.veracity.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.testing.NodeClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The official TypeScript MCP client ({@code @modelcontextprotocol/sdk}, pinned below) over streamable HTTP against
 * {@code veracity mcp}, from Node.js: list the tools, call {@code verify} where the Checker disagrees with a number,
 * check the verdict and the claims; a bad call is a tool error. The package is installed with {@code npm install}
 * into {@code target/npm-mcp} (once; later runs reuse it); the test is skipped, saying so, only when {@code node} or
 * {@code npm} is not installed.
 */
class NpmMcpClientTest {

    static final String MCP_NPM_VERSION = "1.32.2";
    private static final Path DIR = Path.of("target", "npm-mcp").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String SCRIPT = """
            import { Client } from '@modelcontextprotocol/sdk/client/index.js';
            import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
            const client = new Client({ name: 'veracity-npm-test', version: '1.0.0' });
            await client.connect(new StreamableHTTPClientTransport(new URL(process.env.MCP_URL)));
            const tools = await client.listTools();
            const verify = await client.callTool({ name: 'verify', arguments: { question: process.env.QUESTION,
              answer: process.env.ANSWER, documents: JSON.parse(process.env.DOCUMENTS) } });
            const bad = await client.callTool({ name: 'score', arguments: { prediction: 'a', gold: 'a', metric: 'bleu' } });
            console.log(JSON.stringify({ tools: tools.tools.map(t => ({ name: t.name, output: !!t.outputSchema })),
              verify: verify.structuredContent, verifyError: verify.isError ?? false,
              bad: { isError: bad.isError ?? false, text: bad.content[0]?.text } }));
            await client.close();
            """;

    @Test
    void theOfficialTypeScriptClientListsTheToolsAndGetsVerifysVerdictAndClaims() throws Exception {
        Assumptions.assumeTrue(NodeClient.available(),
                "skipped: node and npm are not installed, so the official npm MCP client cannot be run"
                        + " (install Node.js 18 or later to run this test)");
        NodeClient.install(DIR, "@modelcontextprotocol/sdk", MCP_NPM_VERSION);
        Files.writeString(DIR.resolve("mcp-client-test.mjs"), SCRIPT);
        try (McpServed served = McpServed.start(null, false)) {
            String out = NodeClient.run(DIR, Map.of("MCP_URL", served.server.url(), "QUESTION", AppendixC.QUESTION,
                    "ANSWER", AppendixC.SOLVER_RESPONSE,
                    "DOCUMENTS", JSON.writeValueAsString(McpServed.documents(McpServed.CHANGED_DOCS))),
                    120, "node", "mcp-client-test.mjs");
            JsonNode r = JSON.readTree(NodeClient.lastJsonLine(out));
            assertThat(r.get("tools").toString()).contains("{\"name\":\"verify\",\"output\":true}",
                    "{\"name\":\"ask\",\"output\":true}", "{\"name\":\"search\",\"output\":true}",
                    "{\"name\":\"score\",\"output\":true}");
            assertThat(r.get("verifyError").asBoolean()).isFalse();
            JsonNode v = r.get("verify");
            assertThat(v.get("status").asText()).isEqualTo("failed");
            assertThat(v.get("claims")).hasSize(5);
            assertThat(v.at("/claims/3/verdict").asText()).isEqualTo("fault");
            assertThat(v.at("/claims/3/claimed_answer").asText()).isEqualTo(AppendixC.CLAIMED.get(3));
            assertThat(v.at("/claims/3/checker_answers/0/answer").asText()).isEqualTo("80");
            assertThat(v.at("/claims/0/verdict").asText()).isEqualTo("confirmed");
            assertThat(r.at("/bad/isError").asBoolean()).isTrue();
            assertThat(r.at("/bad/text").asText()).contains("unknown metric 'bleu'");
        }
    }
}
