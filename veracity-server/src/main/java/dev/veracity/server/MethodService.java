package dev.veracity.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.run.DocumentSource;
import dev.veracity.http.HttpProblem;
import dev.veracity.http.ServerLog;
import dev.veracity.http.ServerMetrics;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.MarchVerifier;
import dev.veracity.methods.march.Verification;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.RequestTraces;
import dev.veracity.trace.TraceSink;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code veracity serve}'s methods for another door than its chat endpoint ({@code veracity mcp}): the same
 * {@link Pipeline} (documents, options, the method, per-request call accounting), the same upstream clients and the
 * same {@link VeracityReport}, with MARCH's verifier on its own for checking an answer someone else gave.
 * <p>Bad input and upstream failures are {@link HttpProblem}s with serve's codes ({@code model_not_found},
 * {@code invalid_option}, {@code missing_documents}, {@code upstream_unavailable}, ...), raised before any model call
 * where the input is at fault; a door shows their one-line message in its own shape.
 */
public final class MethodService implements AutoCloseable {

    /** What a method answered: its text and serve's {@code veracity} field. */
    public record Answer(String answer, ObjectNode veracity) {
    }

    /** A question for a method, as serve's chat request carries it. */
    public record Question(String question, String method, List<Document> documents, Map<String, String> options,
                           String dataset, boolean multiAnswer) {
        public Question {
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(method, "method");
            options = Map.copyOf(options);
            dataset = dataset == null ? "" : dataset;
        }
    }

    /**
     * MARCH's verdict on an answer.
     *
     * @param documentSource {@code request} or {@code index}
     * @param calls          the Proposer's and the Checker's calls, in the order they ended
     */
    public record Checked(Verification verification, MarchSettings settings, String documentSource,
                          List<Document> documents, List<CallRecord> calls) {
    }

    private final ServedMethods methods = new ServedMethods();
    private final UpstreamClients upstream;
    private final RequestTraces traces;
    private final Pipeline pipeline;
    private final DocumentSource index;
    private final Map<String, Consumer<CallRecord>> listeners;
    private final Supplier<Embedder> embedder;

    private MethodService(UpstreamClients upstream, RequestTraces traces, Pipeline pipeline, DocumentSource index,
                          Map<String, Consumer<CallRecord>> listeners, Supplier<Embedder> embedder) {
        this.upstream = upstream;
        this.traces = traces;
        this.pipeline = pipeline;
        this.index = index;
        this.listeners = listeners;
        this.embedder = embedder;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The dense embedder the pipeline uses (made on first use, then the same one), for other dense searches over the
     * same index; null when none was given.
     */
    public Supplier<Embedder> embedder() {
        return embedder;
    }

    /** Whether {@code method} (a method or a composition, without {@code @UPSTREAM_MODEL}) is one it answers with. */
    public boolean knowsMethod(String method) {
        try {
            methods.byName(method);
            return true;
        } catch (HttpProblem e) {
            return false;
        }
    }

    /** Whether documents can come from the server's index when a call gives none. */
    public boolean hasIndex() {
        return index != null;
    }

    /**
     * Answers a question with a method (a name as serve's {@code model}: {@code madam-rag},
     * {@code standard-rag+march+abstain}, {@code march@other-model}).
     *
     * @param onCall told of each model call as it ends (progress), on the caller's or a client's thread
     * @throws HttpProblem          for an unknown method, bad options, missing documents, or a failed upstream
     * @throws InterruptedException when the calling thread is interrupted (the method's calls are cancelled)
     */
    public Answer ask(Question q, Consumer<CallRecord> onCall) throws InterruptedException {
        String id = "mcp-" + UUID.randomUUID().toString().replace("-", "");
        long t0 = System.nanoTime();
        ModelName name = ModelName.parse(q.method());
        QaMethod m = methods.byName(name.method());
        LlmClient client = upstream.client(name.upstream());
        String upstreamModel = name.upstream() == null ? upstream.defaultModel() : name.upstream();
        ChatRequest r = new ChatRequest(name, q.question(), q.documents(), q.options(), false, false, q.dataset(),
                q.multiAnswer(), List.of());
        Pipeline.Prepared p = pipeline.prepare(id, r, m);
        listeners.put(id, onCall == null ? c -> { } : onCall);
        try {
            Pipeline.Outcome o = pipeline.answer(p, client);
            return new Answer(o.answer().prediction(), VeracityReport.field(o, upstreamModel, System.nanoTime() - t0));
        } finally {
            listeners.remove(id);
        }
    }

    /**
     * Checks an answer with MARCH (Proposer once, Checker k times, blind to the answer), on the default upstream model,
     * against the given documents or, when none are given, the top k of the server's index searched with the question.
     *
     * @param options MARCH's options ({@code samples}, {@code claims}, {@code match}, {@code temperature}, ...)
     */
    public Checked verify(String question, String answer, List<Document> documents, Map<String, String> options,
                          Consumer<CallRecord> onCall) throws InterruptedException {
        MarchSettings settings;
        try {
            settings = MarchSettings.fromOptions(options);
        } catch (IllegalArgumentException e) {
            throw new HttpProblem(400, "invalid_option", ClientText.quote(e.getMessage(), 1000));
        }
        List<Document> docs = documents;
        String source = "request";
        if (docs == null) {
            if (index == null) {
                throw new HttpProblem(400, "missing_documents", "give the documents to check the answer against, or"
                        + " start the server with --index DIR to retrieve them with the question");
            }
            QaItem item = new QaItem(Pipeline.itemId(question, null), question, List.of(), List.of(), List.of(), null,
                    Map.of(), null);
            docs = index.prepare(methods.byName("march"), item).item().documents();
            source = "index";
        }
        String id = "mcp-" + UUID.randomUUID().toString().replace("-", "");
        LlmClient client = upstream.client(null);
        traces.begin(id);
        listeners.put(id, onCall == null ? c -> { } : onCall);
        try {
            Verification v = new MarchVerifier(settings).verify(client, CallContext.of(Pipeline.RUN_ID, id, "march"),
                    answer, docs);
            List<CallRecord> calls = traces.end(id);
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("cancelled");
            }
            return new Checked(v, settings, source, docs, calls);
        } catch (RuntimeException e) {
            traces.end(id);
            if (UpstreamErrors.cancelled(e)) {
                throw new InterruptedException("cancelled");
            }
            HttpProblem problem = UpstreamErrors.toProblem(e);
            throw problem == null ? e : problem;
        } finally {
            listeners.remove(id);
        }
    }

    /** Closes the upstream clients (not the backend, which its owner closes) and flushes the traces. */
    @Override
    public void close() {
        upstream.close();
        traces.flush();
    }

    /** The request traces, upstream clients and pipeline a request is answered with. */
    record Parts(RequestTraces traces, UpstreamClients upstream, Pipeline pipeline) {
    }

    /** What the service answers with; {@link ChatServer.Builder} is made of one. */
    public static final class Builder {
        private LlmBackend backend;
        private List<String> models;
        private BiFunction<LlmBackend, TraceSink, LlmClient> clientFor;
        private TraceSink durable = TraceSink.NONE;
        private DocumentSource index;
        private Retriever retriever;
        private Supplier<Embedder> embedder;
        private PageSource pages;
        private ServerLog log = ServerLog.none();

        private Builder() {
        }

        /** As {@link ChatServer.Builder#upstream}. */
        public Builder upstream(LlmBackend backend, List<String> models,
                                BiFunction<LlmBackend, TraceSink, LlmClient> clientFor) {
            this.backend = Objects.requireNonNull(backend, "backend");
            this.models = List.copyOf(models);
            this.clientFor = Objects.requireNonNull(clientFor, "clientFor");
            return this;
        }

        public Builder traces(TraceSink durable) {
            this.durable = Objects.requireNonNull(durable, "durable");
            return this;
        }

        public Builder index(DocumentSource source, Retriever retriever) {
            this.index = source;
            this.retriever = retriever;
            return this;
        }

        public Builder embedder(Supplier<Embedder> embedder) {
            this.embedder = embedder == null ? null : memoized(embedder);
            return this;
        }

        public Builder pages(PageSource pages) {
            this.pages = pages;
            return this;
        }

        public Builder log(ServerLog log) {
            this.log = Objects.requireNonNull(log, "log");
            return this;
        }

        public MethodService build() {
            Map<String, Consumer<CallRecord>> listeners = new ConcurrentHashMap<>();
            TraceSink progress = record -> {
                Consumer<CallRecord> l = listeners.get(record.context().questionId());
                if (l != null) {
                    l.accept(record);
                }
            };
            Parts parts = parts(TraceSink.all(durable, progress), new ServeMetrics(new ServerMetrics()));
            return new MethodService(parts.upstream(), parts.traces(), parts.pipeline(), index, listeners, embedder);
        }

        void requireUpstream() {
            if (backend == null) {
                throw new IllegalStateException("no upstream: call upstream(...) first");
            }
        }

        ServerLog log() {
            return log;
        }

        /**
         * What a request is answered with, as serve's chat endpoint and this service both assemble it: the request
         * traces over {@code sink}, the upstream clients that record into them, and the pipeline.
         */
        Parts parts(TraceSink sink, ServeMetrics metrics) {
            requireUpstream();
            RequestTraces traces = new RequestTraces(sink);
            UpstreamClients upstream = new UpstreamClients(backend, models, pinned -> clientFor.apply(pinned, traces));
            return new Parts(traces, upstream, new Pipeline(index, retriever, embedder, pages, traces, metrics, log));
        }

        /** The durable sink ({@code --trace-file}), or none. */
        TraceSink durable() {
            return durable;
        }

        static <T> Supplier<T> memoized(Supplier<T> s) {
            return new Supplier<>() {
                private volatile T value;

                @Override
                public synchronized T get() {
                    if (value == null) {
                        value = s.get();
                    }
                    return value;
                }
            };
        }
    }
}
