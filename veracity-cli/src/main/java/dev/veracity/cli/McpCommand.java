package dev.veracity.cli;

import static dev.veracity.cli.ServerCommands.closeAll;

import dev.veracity.config.VeracityConfig;
import dev.veracity.http.ServerLog;
import dev.veracity.mcp.McpHttpServer;
import dev.veracity.mcp.McpStdio;
import dev.veracity.mcp.VeracityMcp;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.SearchIndex;
import dev.veracity.server.MethodService;
import dev.veracity.server.ServeSettings;
import dev.veracity.trace.TraceSink;
import dev.veracity.trace.TraceStore;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity mcp --stdio | --port N}: the methods as Model Context Protocol tools ({@code veracity-mcp}):
 * {@code verify}, {@code ask}, {@code search}, {@code score}, and the run summaries of {@code --runs DIR} as
 * resources; over stdio for desktop agent hosts (stdout carries protocol messages only) or streamable HTTP at
 * {@code /mcp} with serve's keys and limits. The upstream, index and page flags are serve's.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true, modelTransformer = ServeCommand.CacheOffByDefault.class,
        description = "Serve the methods as MCP tools (verify, ask, search, score) and run summaries as resources: over"
                + " stdio (--stdio, for desktop agent hosts) or streamable HTTP at /mcp (--port N).")
final class McpCommand implements Callable<Integer> {

    @Option(names = "--stdio", description = "Talk MCP over stdin and stdout (a desktop host launches the command);"
            + " logs go to stderr. The HTTP server's options (--host, limits, keys) are for --port only.")
    boolean stdio;

    /** --port chooses HTTP (0: a free port); the limits apply to its requests. */
    @Mixin
    ServerOptions http = new ServerOptions(8090, 300, 30);

    @Option(names = "--runs", paramLabel = "DIR", description = "A folder of eval runs: each run's summary.json is a"
            + " resource (veracity://runs/RUN/summary.json).")
    Path runs;

    @Mixin
    UpstreamOptions upstream;

    @Mixin
    KeyOptions access;

    @Mixin
    RetrievalOptions retrieval;

    @Mixin
    ModelOptions model;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        boolean port = spec.commandLine().getParseResult().hasMatchedOption("--port");
        if (stdio == port) {
            throw new IllegalArgumentException(stdio ? "give --stdio or --port, not both"
                    : "give --stdio (a desktop host launches veracity mcp) or --port N (streamable HTTP at /mcp)");
        }
        if (stdio) {
            refuseHttpOptions();
        }
        PrintStream protocol = System.out;
        if (stdio) {
            System.setOut(System.err); // stdout carries protocol messages only
        }
        upstream.applyTo(model);
        if (model.cache == null && System.getenv("VERACITY_CACHE") == null) {
            model.cache = "off"; // as serve: a server answers live questions
        }
        retrieval.validate();
        if (runs != null && !Files.isDirectory(runs)) {
            throw new IllegalArgumentException("--runs: no folder at " + runs);
        }
        ServeSettings settings = stdio ? null : access.applyTo(ServeSettings.defaults().withHost(http.host)
                .withPort(http.port).withLimits(http.limits("--max-items", 256)));
        if (settings != null) {
            settings.requireSafeListen(); // before anything is opened
        }
        VeracityConfig cfg = model.resolve();
        List<AutoCloseable> held = new ArrayList<>();
        try {
            TraceSink traces = TraceSink.NONE;
            if (model.traceFile != null) { // only when asked: the traces hold every prompt
                TraceStore store = TraceStore.open(cfg.traceFile());
                held.add(store);
                traces = store;
            }
            RetrievalOptions.Serving from = retrieval.serving(held);
            SearchIndex index = from.index();
            Stack stack = new Stack(cfg, TraceSink.NONE);
            held.add(stack);
            MethodService service = MethodService.builder()
                    .upstream(stack.backend, upstream.models(cfg), UpstreamOptions.clients(cfg, stack))
                    .traces(traces).index(from.source(), from.retriever())
                    .embedder(from.embedderFor(retrieval))
                    .pages(from.pages()).log(ServerLog.to(System.err)).build();
            held.add(service);
            // search as veracity search does: the index's retriever for the mode asked, with the service's one embedder
            Function<String, Retriever> search = index == null ? null : mode -> index.retriever(mode,
                    mode.equals("bm25") ? null : service.embedder().get());
            VeracityMcp mcp = VeracityMcp.builder(service).search(search).runs(runs)
                    .version(dev.veracity.config.BuildInfo.current().version()).build();
            if (stdio) {
                System.err.println("veracity mcp: serving MCP on stdio over " + cfg.model() + " at " + cfg.llmBaseUrl());
                // a host that ends the session with SIGTERM instead of closing stdin: the traces are still flushed
                Thread hook = new Thread(() -> closeAll(held), "mcp-stop");
                Runtime.getRuntime().addShutdownHook(hook);
                try {
                    McpStdio.serve(mcp, System.in, protocol);
                } finally {
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                        closeAll(held);
                    } catch (IllegalStateException stopping) {
                        // the JVM is already shutting down: the hook closes them
                    }
                }
                return 0;
            }
            McpHttpServer server = McpHttpServer.start(mcp, settings, ServerLog.to(System.err));
            held.add(server);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> closeAll(held), "mcp-stop"));
            var out = spec.commandLine().getOut();
            out.println("Serving MCP (streamable HTTP) on " + server.url() + " over " + cfg.model() + " at "
                    + cfg.llmBaseUrl() + " (stop with Ctrl-C or SIGTERM)");
            out.println("  tools: verify, ask, search" + (index == null ? " (no --index: it says so)" : "") + ", score;"
                    + " resources: " + (runs == null ? "none (--runs DIR)" : "the run summaries of " + runs)
                    + (settings.keys().isEmpty() ? "" : "; API key: one of the " + settings.keys().size() + " configured"));
            out.flush();
            server.awaitStopped();
            return 0;
        } catch (Exception e) {
            closeAll(held);
            throw e;
        }
    }

    /** --stdio has no listener and no keys: an HTTP or key flag given with it would be ignored, so it is refused. */
    private void refuseHttpOptions() {
        var parsed = spec.commandLine().getParseResult();
        List<String> given = java.util.stream.Stream.of("http", "access")
                .flatMap(m -> spec.mixins().get(m).options().stream())
                .filter(parsed::hasMatchedOption).map(o -> o.longestName()).toList();
        if (!given.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", given) + (given.size() == 1 ? " is an option" : " are"
                    + " options") + " of the HTTP server (--port N); --stdio talks over stdin and stdout: drop "
                    + (given.size() == 1 ? "it" : "them") + ", or serve with --port N");
        }
    }
}
