package dev.veracity.cli;

import static dev.veracity.cli.ServerCommands.closeAll;
import static dev.veracity.cli.ServerCommands.seconds;

import dev.veracity.config.VeracityConfig;
import dev.veracity.http.ServerLimits;
import dev.veracity.http.ServerLog;
import dev.veracity.methods.Methods;
import dev.veracity.server.ApiKeys;
import dev.veracity.server.ChatServer;
import dev.veracity.server.ServeSettings;
import dev.veracity.server.UpstreamProbe;
import dev.veracity.trace.TraceSink;
import dev.veracity.trace.TraceStore;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity serve --port N --upstream-base-url URL --model NAME [--index DIR]}: every method behind an
 * OpenAI-compatible API ({@code veracity-server}) until SIGTERM or Ctrl-C, which finish the requests in flight within
 * the grace period.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, modelTransformer = ServeCommand.CacheOffByDefault.class,
        description = "Serve the methods behind an OpenAI-compatible API: POST /v1/chat/completions with model = a method"
                + " (madam-rag, march, standard-rag+march+abstain, ...), GET /v1/models, /healthz, /readyz, /metrics.")
final class ServeCommand implements Callable<Integer> {

    /** Port 8080; a request may take 300 s; SIGTERM gives those in flight 30 s. */
    @Mixin
    ServerOptions http = new ServerOptions(8080, 300, 30);

    @Mixin
    UpstreamOptions upstream;

    @Mixin
    KeyOptions access;

    @Option(names = "--max-items", defaultValue = "256", paramLabel = "N",
            description = "Most messages, and most documents, in one request, else 413 (default ${DEFAULT-VALUE}).")
    int maxItems;

    @Option(names = "--keep-alive-seconds", defaultValue = "5", paramLabel = "S", description = "While a streamed"
            + " answer is worked out, a ': keep-alive' comment this often (default ${DEFAULT-VALUE}).")
    double keepAliveSeconds;

    @Mixin
    RetrievalOptions retrieval;

    @Mixin
    ModelOptions model;

    @Spec
    CommandSpec spec;

    /**
     * The shared {@code --cache} option, described with serve's own default: off (unless {@code --cache} or
     * {@code VERACITY_CACHE} says otherwise), where every other command defaults to read-write.
     */
    static final class CacheOffByDefault implements CommandLine.IModelTransformer {
        static final String DESCRIPTION = "Response cache: off, read-only or read-write (env VERACITY_CACHE; default off:"
                + " a server answers live questions, so it reuses answers only when asked to).";

        @Override
        public CommandSpec transform(CommandSpec spec) {
            OptionSpec cache = spec.findOption("--cache");
            spec.remove(cache);
            spec.addOption(OptionSpec.builder(cache).description(DESCRIPTION).build());
            return spec;
        }
    }

    @Override
    public Integer call() throws Exception {
        upstream.applyTo(model);
        if (model.cache == null && System.getenv("VERACITY_CACHE") == null) {
            model.cache = "off"; // as CacheOffByDefault says in the help
        }
        retrieval.validate();
        if (!(keepAliveSeconds > 0)) {
            throw new IllegalArgumentException("--keep-alive-seconds must be positive, got " + keepAliveSeconds);
        }
        ServerLimits limits = http.limits("--max-items", maxItems);
        ServeSettings settings = access.applyTo(ServeSettings.defaults().withHost(http.host).withPort(http.port))
                .withKeepAlive(seconds(keepAliveSeconds))
                .withLimits(limits);
        ApiKeys keys = settings.keys();
        VeracityConfig cfg = model.resolve();
        List<String> models = upstream.models(cfg);

        // What the server holds, closed in reverse order after it stops.
        List<AutoCloseable> held = new ArrayList<>();
        // The SDK client (about half a second of class loading) is built while the index opens: start-up under 2 s.
        java.util.concurrent.FutureTask<Stack> building = new java.util.concurrent.FutureTask<>(() -> new Stack(cfg, TraceSink.NONE));
        Thread.ofVirtual().name("serve-upstream-client").start(building);
        ChatServer server;
        try {
            TraceSink traces = TraceSink.NONE;
            if (model.traceFile != null) { // only when asked: the traces hold every prompt
                TraceStore store = TraceStore.open(cfg.traceFile());
                held.add(store);
                traces = store;
            }
            RetrievalOptions.Serving from = retrieval.serving(held);
            Stack stack = built(building);
            held.add(stack);
            server = ChatServer.builder(settings)
                    .upstream(stack.backend, models, UpstreamOptions.clients(cfg, stack))
                    .probe(UpstreamProbe.anyOf(cfg.llmBaseUrls().stream().collect(java.util.stream.Collectors.toMap(
                            u -> u, u -> UpstreamProbe.models(u, cfg.apiKey().orElse(null), Duration.ofSeconds(5)),
                            (a, b) -> a, java.util.LinkedHashMap::new))))
                    .traces(traces)
                    .index(from.source(), from.retriever())
                    .embedder(from.embedderFor(retrieval))
                    .pages(from.pages())
                    .log(ServerLog.to(System.err))
                    .start();
        } catch (Exception e) {
            closeAll(held);
            if (building.isDone() && !building.isCancelled()) {
                try {
                    building.get().close();
                } catch (Exception ignored) {
                    // it failed to build: nothing to close
                }
            }
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            closeAll(held);
        }, "serve-stop"));
        PrintWriter out = spec.commandLine().getOut();
        String url = server.baseUrl() + "/v1";
        out.println("Serving " + Methods.names().size() + " methods (and METHOD+march[+abstain]) on " + url
                + " over " + cfg.model() + " at " + cfg.llmBaseUrl() + " (stop with Ctrl-C or SIGTERM)");
        out.println("  OpenAI clients: base URL " + url + ", model = a method (GET " + url + "/models lists them)"
                + (keys.isEmpty() ? "" : ", API key: one of the " + keys.size() + " configured"));
        out.println("  documents: 'documents' in the body, a 'Documents:' system message"
                + (!retrieval.given() ? "" : ", else the top " + retrieval.k + " of " + retrieval.describe()));
        out.println("  playground: " + server.baseUrl() + "/ (try the methods in a browser)");
        out.println("  health: " + server.baseUrl() + "/healthz  ready: " + server.baseUrl() + "/readyz  metrics: "
                + server.baseUrl() + "/metrics");
        out.flush();
        for (String upstream : cfg.llmBaseUrls()) {
            boolean several = cfg.llmBaseUrls().size() > 1;
            Thread.ofVirtual().start(() -> UpstreamProbe.models(upstream, cfg.apiKey().orElse(null),
                    Duration.ofSeconds(5)).problem().ifPresent(p -> ServerLog.to(System.err).warn(p + (several
                    ? " (" + upstream + "); the other upstreams take its calls until a probe finds it up"
                    : "; requests will fail until it answers (GET /readyz says when)"))));
        }
        server.awaitStopped();
        return 0;
    }

    /** The stack built on the other thread, or the exception that stopped it, as it was thrown. */
    private static Stack built(java.util.concurrent.FutureTask<Stack> building) throws Exception {
        try {
            return building.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : new IllegalStateException(e.getCause());
        }
    }
}
