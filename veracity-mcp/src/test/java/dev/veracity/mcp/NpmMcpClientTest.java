package dev.veracity.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.methods.march.AppendixC;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

    private static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String run(Map<String, String> env, int seconds, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in " + seconds + " s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(String.join(" ", command) + " said:\n" + text).isZero();
        return text;
    }

    private static void install() throws Exception {
        Path installed = DIR.resolve("node_modules/@modelcontextprotocol/sdk/package.json");
        if (Files.exists(installed) && Files.readString(installed).contains("\"version\": \"" + MCP_NPM_VERSION + "\"")) {
            return;
        }
        Files.createDirectories(DIR);
        Files.writeString(DIR.resolve("package.json"), "{\"private\": true, \"type\": \"module\", \"dependencies\":"
                + " {\"@modelcontextprotocol/sdk\": \"" + MCP_NPM_VERSION + "\"}}\n");
        run(Map.of(), 300, "npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error");
    }

    @Test
    void theOfficialTypeScriptClientListsTheToolsAndGetsVerifysVerdictAndClaims() throws Exception {
        Assumptions.assumeTrue(runs("node", "--version") && runs("npm", "--version"),
                "skipped: node and npm are not installed, so the official npm MCP client cannot be run"
                        + " (install Node.js 18 or later to run this test)");
        install();
        Files.writeString(DIR.resolve("mcp-client-test.mjs"), SCRIPT);
        try (McpServed served = McpServed.start(null, false)) {
            String out = run(Map.of("MCP_URL", served.server.url(), "QUESTION", AppendixC.QUESTION,
                    "ANSWER", AppendixC.SOLVER_RESPONSE,
                    "DOCUMENTS", JSON.writeValueAsString(McpServed.documents(McpServed.CHANGED_DOCS))),
                    120, "node", "mcp-client-test.mjs");
            JsonNode r = JSON.readTree(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow());
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
