package dev.veracity.mcp;

import dev.veracity.retrieval.Retriever;
import dev.veracity.server.MethodService;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * Veracity's MCP server: the tools {@code verify}, {@code ask}, {@code search}, {@code score} and the run summaries of
 * a folder, on a transport of the SDK (stdio: {@link McpStdio}; streamable HTTP: {@link McpHttpServer}).
 * <pre>{@code
 * VeracityMcp mcp = VeracityMcp.builder(service).search(mode -> index.retriever(mode, embedder)).runs(dir).build();
 * McpSyncServer server = mcp.serve(new StdioServerTransportProvider(McpJsonDefaults.getMapper()));
 * }</pre>
 */
public final class VeracityMcp {

    static final String NAME = "veracity";

    private final MethodService service;
    private final Function<String, Retriever> retrievers;
    private final Path runs;
    private final String version;

    private VeracityMcp(Builder b) {
        this.service = b.service;
        this.retrievers = b.retrievers;
        this.runs = b.runs;
        this.version = b.version;
    }

    public static Builder builder(MethodService service) {
        return new Builder(service);
    }

    /** The server on a session transport (stdio). */
    public McpSyncServer serve(McpServerTransportProvider transport) {
        return configure(McpServer.sync(transport));
    }

    /** The server on the streamable HTTP transport, each tool call on the SDK's worker threads. */
    public McpSyncServer serve(McpStreamableServerTransportProvider transport) {
        return serve(transport, false);
    }

    /**
     * The server on the streamable HTTP transport; with {@code onRequestThread}, each tool call runs on the thread of
     * the HTTP request that carries it (the SDK's immediate execution), so that the server's deadline and stop can
     * cancel it by interrupting that thread.
     */
    public McpSyncServer serve(McpStreamableServerTransportProvider transport, boolean onRequestThread) {
        McpServer.SyncSpecification<?> spec = McpServer.sync(transport);
        spec.immediateExecution(onRequestThread);
        return configure(spec);
    }

    private McpSyncServer configure(McpServer.SyncSpecification<?> spec) {
        spec.serverInfo(NAME, version)
                .instructions("Veracity: methods against hallucination in retrieval-augmented QA. verify checks an"
                        + " answer against documents with MARCH; ask answers with a method; search queries the index;"
                        + " score applies a benchmark metric. Resources: run summaries.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).resources(false, false).build())
                .tools(VerifyTool.spec(service), AskTool.spec(service), SearchTool.spec(retrievers), ScoreTool.spec())
                .resources(RunSummaries.of(runs))
                // ToolArgs reads every argument totally, with a one-line reason naming it; the SDK's schema check
                // would answer first with the validator's words instead
                .validateToolInputs(false);
        return spec.build();
    }

    public static final class Builder {
        private final MethodService service;
        private Function<String, Retriever> retrievers;
        private Path runs;
        private String version = "dev";

        private Builder(MethodService service) {
            this.service = Objects.requireNonNull(service, "service");
        }

        /** The index's retriever by mode ({@code bm25}, {@code dense}, {@code hybrid}); none: search says so. */
        public Builder search(Function<String, Retriever> retrievers) {
            this.retrievers = retrievers;
            return this;
        }

        /** The folder whose runs' summaries are resources; none: no resources. */
        public Builder runs(Path runs) {
            this.runs = runs;
            return this;
        }

        public Builder version(String version) {
            this.version = Objects.requireNonNull(version, "version");
            return this;
        }

        public VeracityMcp build() {
            return new VeracityMcp(this);
        }
    }
}
