package dev.veracity.server;

import dev.veracity.eval.run.DocumentSource;
import dev.veracity.http.JsonServer;
import dev.veracity.http.ServerLog;
import dev.veracity.http.ServerMetrics;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.RequestTraces;
import dev.veracity.trace.TraceSink;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * {@code veracity serve}: the methods behind an OpenAI-compatible API, on {@link JsonServer}.
 * <ul>
 *   <li>{@code POST /v1/chat/completions} ({@link ChatCompletionsRoute}), {@code GET /v1/models} and
 *       {@code GET /v1/models/{id}} ({@link ModelsRoute});</li>
 *   <li>{@code GET /healthz}, {@code GET /readyz} ({@link HealthRoutes}), {@code GET /metrics} (the HTTP metrics and
 *       {@link ServeMetrics}), {@code GET /health} (veracity-http's own);</li>
 *   <li>{@code GET /}: the web playground ({@link Playground});</li>
 *   <li>API keys and per-key limits before the body is read ({@link AccessGate}).</li>
 * </ul>
 * <pre>{@code
 * try (ChatServer s = ChatServer.builder(ServeSettings.defaults())
 *         .upstream(backend, List.of("qwen"), (pinned, traces) -> LlmClient.builder(pinned).traces(traces).build())
 *         .start()) {
 *     s.baseUrl();   // http://127.0.0.1:PORT; an OpenAI client's base URL is baseUrl() + "/v1"
 * }
 * }</pre>
 * Without API keys it listens on a loopback address only, unless {@link ServeSettings#insecureListen()}.
 */
public final class ChatServer implements AutoCloseable {

    private final JsonServer http;
    private final ExecutorService workers;
    private final UpstreamClients upstream;
    private final RequestTraces traces;

    private ChatServer(JsonServer http, ExecutorService workers, UpstreamClients upstream, RequestTraces traces) {
        this.http = http;
        this.workers = workers;
        this.upstream = upstream;
        this.traces = traces;
    }

    public static Builder builder(ServeSettings settings) {
        return new Builder(settings);
    }

    public int port() {
        return http.port();
    }

    /** {@code http://HOST:PORT}; OpenAI clients take {@code baseUrl() + "/v1"}. */
    public String baseUrl() {
        return http.baseUrl();
    }

    public void awaitStopped() throws InterruptedException {
        http.awaitStopped();
    }

    /** Requests whose calls are still being collected (0 when every answered request has let go of its calls). */
    int requestsCollecting() {
        return traces.openRequests();
    }

    /**
     * Stops as {@link JsonServer#close()} does (the port freed at once, requests in flight finish within the grace
     * period, then are cancelled), then cancels the methods still running and closes the upstream clients.
     */
    @Override
    public void close() {
        try {
            http.close();
        } finally {
            workers.shutdownNow();
            upstream.close();
            traces.flush();
        }
    }

    /** What the server answers with. */
    public static final class Builder {
        private final ServeSettings settings;
        /** The upstream, traces, documents, embedder, pages and log: what {@link MethodService} is made of too. */
        private final MethodService.Builder core = MethodService.builder();
        private UpstreamProbe probe = UpstreamProbe.READY;

        private Builder(ServeSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
        }

        /**
         * The upstream model server.
         *
         * @param backend   the server's backend (shared by every model; its owner closes it)
         * @param models    the default model first, then the others a request may name as {@code method@model}
         * @param clientFor the client of one model's backend, sending its call records to the given sink
         */
        public Builder upstream(LlmBackend backend, List<String> models, BiFunction<LlmBackend, TraceSink, LlmClient> clientFor) {
            core.upstream(backend, models, clientFor);
            return this;
        }

        /** How {@code /readyz} checks the upstream (default: always ready). */
        public Builder probe(UpstreamProbe probe) {
            this.probe = Objects.requireNonNull(probe, "probe");
            return this;
        }

        /** Where every call record goes besides the request's own accounting ({@code --trace-file}). */
        public Builder traces(TraceSink durable) {
            core.traces(durable);
            return this;
        }

        /** Documents for requests that give none, from an index; its retriever for methods that search. */
        public Builder index(DocumentSource source, Retriever retriever) {
            core.index(source, retriever);
            return this;
        }

        /** The embedder, asked for on the first request whose method needs one (loading it takes seconds). */
        public Builder embedder(Supplier<Embedder> embedder) {
            core.embedder(embedder);
            return this;
        }

        /** A page store for methods whose agents act in a Wikipedia (court, react, ...). */
        public Builder pages(PageSource pages) {
            core.pages(pages);
            return this;
        }

        public Builder log(ServerLog log) {
            core.log(log);
            return this;
        }

        /**
         * Starts listening.
         *
         * @throws IllegalArgumentException without API keys on a non-loopback address (unless insecureListen)
         * @throws java.net.BindException   when the port is taken
         */
        public ChatServer start() throws IOException {
            core.requireUpstream();
            settings.requireSafeListen();
            ServerMetrics serverMetrics = new ServerMetrics();
            ServeMetrics metrics = new ServeMetrics(serverMetrics);
            MethodService.Parts parts = core.parts(core.durable(), metrics);
            RequestTraces traces = parts.traces();
            UpstreamClients upstream = parts.upstream();
            Pipeline pipeline = parts.pipeline();
            ServerLog log = core.log();
            ExecutorService workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("serve-method-", 0).factory());
            ServedMethods methods = new ServedMethods();
            AnswerStream streams = new AnswerStream(pipeline, workers, settings.keepAlive(), metrics);
            ChatCompletionsRoute chat = new ChatCompletionsRoute(new ChatRequestReader(settings.limits().maxBatch()),
                    methods, upstream, pipeline, streams, metrics);
            ModelsRoute models = new ModelsRoute(methods, upstream, System.currentTimeMillis() / 1000);
            AtomicReference<JsonServer> self = new AtomicReference<>();
            HealthRoutes health = new HealthRoutes(probe, () -> self.get() != null && self.get().isStopping());
            KeyLimiter limiter = new KeyLimiter(new KeyLimiter.Limits(settings.requestsPerMinute(),
                    settings.maxInFlightPerKey()));
            try {
                JsonServer.Builder builder = JsonServer.builder().name("veracity-serve").host(settings.host()).port(settings.port())
                        .limits(settings.limits()).metrics(serverMetrics).log(log)
                        .gate(new AccessGate(settings.keys(), limiter, metrics))
                        .route("POST", "/v1/chat/completions", chat)
                        .route("GET", "/v1/models", models::list)
                        .routePrefix("GET", ModelsRoute.PREFIX, models::one)
                        .route("GET", "/healthz", health::healthz)
                        .route("GET", "/readyz", health::readyz);
                Playground playground = new Playground();
                Playground.ASSETS.keySet().forEach(path -> builder.route("GET", path, playground::serve));
                JsonServer http = builder.start();
                self.set(http);
                return new ChatServer(http, workers, upstream, traces);
            } catch (IOException | RuntimeException e) {
                workers.shutdownNow();
                upstream.close();
                throw e;
            }
        }
    }
}
