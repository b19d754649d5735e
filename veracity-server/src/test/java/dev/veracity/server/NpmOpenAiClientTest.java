package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.testing.NodeClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The official {@code openai} npm client (pinned below) pointed at {@code veracity serve}, non-streaming and
 * streaming, from Node.js. The test installs the client with {@code npm install} into {@code target/npm-openai} (once;
 * later runs reuse it); it is skipped, saying so, only when {@code node} or {@code npm} is not installed.
 */
class NpmOpenAiClientTest {

    /** The newest release without a Node 22 requirement (7.x needs it) and without dependencies. */
    static final String OPENAI_NPM_VERSION = "6.30.1";
    private static final Path DIR = Path.of("target", "npm-openai").toAbsolutePath();
    private static final List<String> METHODS = List.of("standard-rag", "madam-rag", "march", "truthrl",
            "madam-rag+march+abstain");

    private static final String SCRIPT = """
            import OpenAI from 'openai';
            const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: 'unused-locally', maxRetries: 0 });
            const documents = JSON.parse(process.env.DOCUMENTS);
            const messages = [{ role: 'user', content: process.env.QUESTION }];
            const out = { models: {} };
            for (const model of JSON.parse(process.env.MODELS)) {
              const c = await client.chat.completions.create({ model, messages, documents });
              const stream = await client.chat.completions.create({ model, messages, documents, stream: true,
                stream_options: { include_usage: true } });
              let streamed = '', finish = null, usage = null, report = null, chunks = 0;
              for await (const chunk of stream) {
                chunks++;
                for (const choice of chunk.choices) {
                  streamed += choice.delta?.content ?? '';
                  if (choice.finish_reason) finish = choice.finish_reason;
                }
                if (chunk.usage) usage = chunk.usage;
                if (chunk.veracity) report = chunk.veracity;
              }
              out.models[model] = { content: c.choices[0].message.content, usage: c.usage, method: c.veracity?.method,
                streamed, finish, streamUsage: usage, reportMethod: report?.method ?? null, chunks };
            }
            try {
              await client.chat.completions.create({ model: 'gpt-4o', messages, documents });
              out.notFound = null;
            } catch (e) {
              out.notFound = { status: e.status, name: e.constructor.name, code: e.code ?? null, message: e.message };
            }
            const models = await client.models.list();
            out.listed = models.data.map(m => m.id);
            console.log(JSON.stringify(out));
            """;

    @Test
    void theOfficialNpmClientGetsTheMethodsAnswersStreamedOrNot() throws Exception {
        Assumptions.assumeTrue(NodeClient.available(),
                "skipped: node and npm are not installed, so the official npm openai client cannot be run"
                        + " (install Node.js 18 or later to run this test)");
        NodeClient.install(DIR, "openai", OPENAI_NPM_VERSION);
        Files.writeString(DIR.resolve("client-test.mjs"), SCRIPT);
        try (Served served = Served.start()) {
            String documents = Http.JSON.writeValueAsString(Served.DOCS.stream().map(d -> d.text()).toList());
            String out = NodeClient.run(DIR, Map.of("BASE_URL", served.v1(), "QUESTION", Served.QUESTION, "DOCUMENTS", documents,
                    "MODELS", Http.JSON.writeValueAsString(METHODS)), 120, "node", "client-test.mjs");
            JsonNode result = Http.JSON.readTree(NodeClient.lastJsonLine(out));
            for (String method : METHODS) {
                JsonNode m = result.path("models").path(method);
                Served.Reference expected = served.inProcess(method, Served.QUESTION, Served.DOCS, Map.of());
                assertThat(m.path("content").asText()).as(method).isEqualTo(expected.answer().prediction());
                assertThat(m.path("streamed").asText()).as(method + " streamed").isEqualTo(expected.answer().prediction());
                assertThat(m.path("finish").asText()).isEqualTo("stop");
                assertThat(m.path("usage").path("total_tokens").asLong()).isEqualTo(expected.stats().totalTokens());
                assertThat(m.path("streamUsage").path("total_tokens").asLong()).isEqualTo(expected.stats().totalTokens());
                assertThat(m.path("method").asText()).isEqualTo(method);
                assertThat(m.path("reportMethod").asText()).isEqualTo(method);
            }
            JsonNode notFound = result.path("notFound");
            assertThat(notFound.path("status").asInt()).isEqualTo(404);
            assertThat(notFound.path("name").asText()).isEqualTo("NotFoundError");
            assertThat(notFound.path("code").asText()).isEqualTo("model_not_found");
            assertThat(result.path("listed").toString()).contains("\"madam-rag\"", "\"no-rag\"", "\"court\"");
        }
    }
}
