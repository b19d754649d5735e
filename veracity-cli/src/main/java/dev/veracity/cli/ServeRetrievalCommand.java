package dev.veracity.cli;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.http.RetrievalServer;
import dev.veracity.retrieval.lucene.LuceneIndex;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity serve-retrieval}: an index as a VeRL / Search-R1 retrieval server on loopback. */
@Command(name = "serve-retrieval", mixinStandardHelpOptions = true,
        description = "Serve an index on 127.0.0.1 in the Search-R1 / VeRL retrieval protocol (POST /retrieve) until interrupted.")
final class ServeRetrievalCommand implements Callable<Integer> {

    @Option(names = "--index", required = true, paramLabel = "DIR", description = "Index directory.")
    Path index;

    @Option(names = "--port", defaultValue = "8000", description = "Port (0 picks a free one; default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--mode", defaultValue = "bm25", description = "bm25, dense or hybrid (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--onnx-model", paramLabel = "FILE", description = "The e5 ONNX model, for an index embedded with e5.")
    Path onnxModel;

    @Option(names = "--tokenizer", paramLabel = "FILE", description = "The e5 model's tokenizer.json.")
    Path tokenizer;

    @picocli.CommandLine.Mixin
    EmbedderOptions embedding;

    @Override
    public Integer call() throws Exception {
        LuceneIndex idx = LuceneIndex.open(index);
        Embedder embedder = mode.equalsIgnoreCase("bm25") || !idx.metadata().dense() ? null
                : embedding.forQueries(idx.metadata(), onnxModel, tokenizer);
        RetrievalServer server = RetrievalServer.start(idx.retriever(mode, embedder), port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            try {
                idx.close();
            } catch (java.io.IOException ignored) {
                // exiting anyway
            }
            stopped.countDown();
        }));
        System.out.printf("Serving %,d passages (%s) on %s%n", idx.size(), mode, server.url());
        System.out.println("Try: curl -s " + server.url() + " -H 'Content-Type: application/json' "
                + "-d '{\"queries\": [\"who wrote hamlet\"], \"topk\": 3, \"return_scores\": true}'");
        System.out.flush();
        stopped.await();
        return 0;
    }
}
