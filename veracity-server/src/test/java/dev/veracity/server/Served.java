package dev.veracity.server;

import dev.veracity.http.ServerLog;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.trace.InMemoryTraces;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code veracity serve} in-process over the simulator (its built-in reader answers every method's prompts), and the
 * same methods called in-process on the same simulator, whose answers the served ones must equal: the simulator is
 * deterministic, so a served answer that differs was changed by the server.
 */
final class Served implements AutoCloseable {

    /** Fast retries, so fault tests take seconds. */
    static final RetrySettings QUICK_RETRIES = new RetrySettings(3, Duration.ofMillis(5), Duration.ofMillis(20), 2.0, 0.0,
            Duration.ofMillis(50));

    /** The documents most tests send: a question the reader answers from them. */
    static final List<Document> DOCS = List.of(
            Document.of("1", "", "The Eiffel Tower is located in Paris, the capital of France."),
            Document.of("2", "", "Gustave Eiffel's company built the tower, which was completed in 1889."),
            Document.of("3", "", "Paris hosts millions of visitors every year."));
    static final String QUESTION = "Where is the Eiffel Tower located?";

    final SimServer sim;
    final OpenAiCompatibleBackend backend;
    final ChatServer server;
    /** Every call the server made (its durable trace sink). */
    final InMemoryTraces calls;

    private Served(SimServer sim, OpenAiCompatibleBackend backend, ChatServer server, InMemoryTraces calls) {
        this.sim = sim;
        this.backend = backend;
        this.server = server;
        this.calls = calls;
    }

    static Served start() throws IOException {
        return start(SimConfig.defaults(), s -> s, b -> b, Duration.ofSeconds(30));
    }

    /**
     * @param simConfig  the upstream simulator
     * @param settings   changes to the server's default settings
     * @param builder    changes to the server's builder (index, probe, log)
     * @param timeout    the upstream client's per-call timeout
     */
    static Served start(SimConfig simConfig, UnaryOperator<ServeSettings> settings,
                        UnaryOperator<ChatServer.Builder> builder, Duration timeout) throws IOException {
        SimServer sim = SimServer.start(simConfig);
        OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model")
                .build();
        InMemoryTraces calls = new InMemoryTraces();
        try {
            ChatServer server = builder.apply(ChatServer.builder(settings.apply(ServeSettings.defaults()))
                    .upstream(backend, List.of("sim-model", "other-model"), (pinned, traces) -> LlmClient.builder(pinned)
                            .concurrency(64).timeout(timeout).retry(QUICK_RETRIES)
                            .cache(ResponseCache.NONE, CacheMode.OFF).traces(traces).build())
                    .traces(calls).log(ServerLog.none())).start();
            return new Served(sim, backend, server, calls);
        } catch (IOException | RuntimeException e) {
            backend.close();
            sim.close();
            throw e;
        }
    }

    /** The OpenAI base URL: {@code http://127.0.0.1:PORT/v1}. */
    String v1() {
        return server.baseUrl() + "/v1";
    }

    /** What the method answers in-process for the question and documents, with the options, and what it cost. */
    record Reference(MethodAnswer answer, CallStats stats, List<CallRecord> calls) {

        /** Calls per role as the X-Veracity-Roles header writes them, roles in natural order. */
        String roles() {
            Map<String, Integer> n = new java.util.TreeMap<>(VeracityReport::naturalOrder);
            calls.forEach(r -> n.merge(r.context().role(), 1, Integer::sum));
            return String.join(",", n.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        }
    }

    Reference inProcess(String method, String question, List<Document> docs, Map<String, String> options) {
        QaMethod m = Methods.byName(method);
        InMemoryTraces made = new InMemoryTraces();
        try (LlmClient client = LlmClient.builder(backend).concurrency(64).timeout(Duration.ofSeconds(30))
                .cache(ResponseCache.NONE, CacheMode.OFF).traces(made).build()) {
            MethodContext ctx = new MethodContext(client, CallContext.of("reference", "q", m.name()), "", false,
                    m.spec().resolve(options).values());
            // the id the server gives the same question and documents (methods seed choices with it)
            QaItem item = new QaItem(Pipeline.itemId(question, m.needs(Capability.DOCUMENTS) ? docs : null), question, m.needs(Capability.DOCUMENTS) ? docs : List.of(), List.of(), List.of(), null,
                    Map.of(), null);
            MethodAnswer a = m.answer(item, ctx);
            List<CallRecord> records = made.all();
            return new Reference(a, CallStats.ofQuestion(records), records);
        }
    }

    @Override
    public void close() {
        server.close();
        backend.close();
        sim.close();
    }
}
