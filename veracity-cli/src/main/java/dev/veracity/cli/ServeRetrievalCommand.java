package dev.veracity.cli;

import static dev.veracity.cli.ServerCommands.closeAll;

import dev.veracity.http.ServerLimits;
import dev.veracity.http.ServerLog;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.http.RetrievalServer;
import dev.veracity.retrieval.SearchIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity serve-retrieval}: an index as a VeRL / Search-R1 retrieval server. */
@Command(name = "serve-retrieval", mixinStandardHelpOptions = true,
        description = "Serve an index in the Search-R1 / VeRL retrieval protocol (POST /retrieve) until interrupted.")
final class ServeRetrievalCommand implements Callable<Integer> {

    @Option(names = "--index", required = true, paramLabel = "DIR|URL",
            description = "Index directory, or an OpenSearch index (opensearch://HOST:9200/NAME).")
    String index;

    /** Port 8000; a request may take 120 s; SIGTERM gives those in flight 5 s. */
    @picocli.CommandLine.Mixin
    ServerOptions http = new ServerOptions(8000, 120, 5);

    @Option(names = "--mode", defaultValue = "bm25", description = "bm25, dense or hybrid (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--onnx-model", paramLabel = "FILE", description = "The e5 ONNX model, for an index embedded with e5.")
    Path onnxModel;

    @Option(names = "--tokenizer", paramLabel = "FILE", description = "The e5 model's tokenizer.json.")
    Path tokenizer;

    @Option(names = "--max-batch", defaultValue = "1024", paramLabel = "N",
            description = "Most queries in one request; more is refused with 413 (default ${DEFAULT-VALUE}).")
    int maxBatch;

    @picocli.CommandLine.Mixin
    EmbedderOptions embedding;

    @Override
    public Integer call() throws Exception {
        ServerLimits limits = http.limits("--max-batch", maxBatch);
        List<AutoCloseable> held = new ArrayList<>();
        SearchIndex idx = SearchIndex.open(index);
        held.add(idx);
        RetrievalServer server;
        try {
            Embedder embedder = mode.equalsIgnoreCase("bm25") || !idx.metadata().dense() ? null
                    : embedding.forQueries(idx.metadata(), onnxModel, tokenizer);
            server = RetrievalServer.start(idx.retriever(mode, embedder), http.host, http.port, limits, ServerLog.to(System.err));
        } catch (Exception e) {
            closeAll(held);
            throw e;
        }
        // SIGTERM: stop taking requests, finish those in flight within the grace, cancel the rest, close the index.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            closeAll(held);
        }, "serve-retrieval-stop"));
        System.out.printf("Serving %,d passages (%s) on %s (stop with Ctrl-C or SIGTERM)%n", idx.metadata().passages(), mode, server.url());
        System.out.println("Try: curl -s " + server.url() + " -H 'Content-Type: application/json' "
                + "-d '{\"queries\": [\"who wrote hamlet\"], \"topk\": 3, \"return_scores\": true}'");
        System.out.flush();
        server.awaitStopped();
        return 0;
    }
}
