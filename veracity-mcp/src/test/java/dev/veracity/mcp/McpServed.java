package dev.veracity.mcp;

import dev.veracity.http.ServerLog;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.qa.Document;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.server.ApiKeys;
import dev.veracity.server.MethodService;
import dev.veracity.server.ServeSettings;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code veracity mcp --port 0} in-process over the simulator scripted as the paper's model answers MARCH's agents in
 * Appendix C ({@link AppendixC#respond}: the Checker reads its answers from the documents of its prompt), a small
 * in-memory index for {@code search}, and a runs folder with one run.
 */
final class McpServed implements AutoCloseable {

    /** The Appendix C documents with document 8 changed (89% -> 80%): the Checker disagrees with claim 4's number. */
    static final List<Document> CHANGED_DOCS;

    static {
        List<Document> changed = new ArrayList<>(AppendixC.DOCUMENTS);
        changed.set(7, Document.of("8", "", changed.get(7).text().replace("89%", "80%")));
        CHANGED_DOCS = List.copyOf(changed);
    }

    static final List<dev.veracity.retrieval.corpus.Document> CORPUS = List.of(
            new dev.veracity.retrieval.corpus.Document("p1", "Eiffel Tower", "The Eiffel Tower is located in Paris, the capital of France."),
            new dev.veracity.retrieval.corpus.Document("p2", "Eiffel Tower", "The tower was completed in 1889 for the World's Fair."),
            new dev.veracity.retrieval.corpus.Document("p3", "Colosseum", "The Colosseum is an amphitheatre in the centre of Rome."),
            new dev.veracity.retrieval.corpus.Document("p4", "Big Ben", "Big Ben is the nickname of the Great Bell in London."));

    static final String KEY = "sk-mcp-test-key-0123456789";

    final SimServer sim;
    final OpenAiCompatibleBackend backend;
    final MethodService service;
    final LuceneIndex index;
    final McpHttpServer server;

    private McpServed(SimServer sim, OpenAiCompatibleBackend backend, MethodService service, LuceneIndex index,
                      McpHttpServer server) {
        this.sim = sim;
        this.backend = backend;
        this.service = service;
        this.index = index;
        this.server = server;
    }

    static List<Rule> appendixCRules() {
        return List.of(
                Rule.of("You are a data validation expert", m -> AppendixC.respond(m.prompt())),
                Rule.of("You are a data annotation expert", m -> AppendixC.respond(m.prompt())),
                Rule.of("You must respond based strictly", m -> AppendixC.respond(m.prompt())));
    }

    /** @param keys whether the server needs {@link #KEY} */
    static McpServed start(Path runs, boolean keys) throws IOException {
        return start(runs, keys, s -> s);
    }

    static McpServed start(Path runs, boolean keys, java.util.function.UnaryOperator<ServeSettings> change)
            throws IOException {
        return start(runs, keys, change, b -> b);
    }

    /** @param simulator changes to the simulator's settings (a latency, say) */
    static McpServed start(Path runs, boolean keys, java.util.function.UnaryOperator<ServeSettings> change,
                           java.util.function.UnaryOperator<SimConfig.Builder> simulator) throws IOException {
        SimServer sim = SimServer.start(simulator.apply(SimConfig.builder().rules(appendixCRules().toArray(Rule[]::new)))
                .build());
        OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model")
                .build();
        LuceneIndex index = LuceneIndex.inMemory(CORPUS, null);
        MethodService service = MethodService.builder()
                .upstream(backend, List.of("sim-model"), (pinned, traces) -> LlmClient.builder(pinned).concurrency(16)
                        .timeout(Duration.ofSeconds(30)).retry(new RetrySettings(2, Duration.ofMillis(5),
                                Duration.ofMillis(20), 2.0, 0.0, Duration.ofMillis(50))).cache(ResponseCache.NONE, CacheMode.OFF).traces(traces).build())
                .log(ServerLog.none()).build();
        VeracityMcp mcp = VeracityMcp.builder(service).search(mode -> index.retriever(mode, null)).runs(runs).build();
        ServeSettings settings = ServeSettings.defaults();
        if (keys) {
            Path f = Files.createTempFile("mcp-keys", ".txt");
            Files.writeString(f, KEY + " tester\n");
            settings = settings.withKeys(ApiKeys.load(f, null));
            Files.delete(f);
        }
        return new McpServed(sim, backend, service, index, McpHttpServer.start(mcp, change.apply(settings)));
    }

    /** The SDK's client over streamable HTTP, initialized; progress notifications go to the consumer. */
    McpSyncClient client(String key, Consumer<McpSchema.ProgressNotification> progress) {
        HttpRequest.Builder request = HttpRequest.newBuilder();
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        String base = server.url().substring(0, server.url().length() - McpHttpServer.ENDPOINT.length());
        McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder(base).endpoint(McpHttpServer.ENDPOINT)
                        .requestBuilder(request).build())
                .requestTimeout(Duration.ofSeconds(60)).progressConsumer(progress).build();
        c.initialize();
        return c;
    }

    /** A tool call with a progress token. */
    static McpSchema.CallToolRequest call(String tool, Map<String, Object> args, String progressToken) {
        return new McpSchema.CallToolRequest(tool, args, progressToken == null ? null
                : Map.of("progressToken", progressToken));
    }

    static List<Map<String, Object>> documents(List<Document> docs) {
        return docs.stream().map(d -> Map.<String, Object>of("id", d.id(), "text", d.text())).toList();
    }

    @Override
    public void close() {
        server.close();
        service.close();
        try {
            index.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        backend.close();
        sim.close();
    }
}
