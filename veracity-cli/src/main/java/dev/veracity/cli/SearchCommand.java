package dev.veracity.cli;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.lucene.IndexMetadata;
import dev.veracity.retrieval.SearchIndex;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./veracity search}: ranked passages for a query from an index built by {@code ./veracity index}. */
@Command(name = "search", mixinStandardHelpOptions = true, description = "Search an index and print the ranked passages.")
final class SearchCommand implements Callable<Integer> {

    @Option(names = "--index", required = true, paramLabel = "DIR|URL",
            description = "Index directory, or an OpenSearch index (opensearch://HOST:9200/NAME).")
    String index;

    @Option(names = "--mode", defaultValue = "bm25", description = "bm25, dense or hybrid (RRF) (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "-k", defaultValue = "10", description = "Passages to return (default ${DEFAULT-VALUE}).")
    int k;

    @Option(names = "--onnx-model", paramLabel = "FILE", description = "The e5 ONNX model, for an index embedded with e5.")
    Path onnxModel;

    @Option(names = "--tokenizer", paramLabel = "FILE", description = "The e5 model's tokenizer.json.")
    Path tokenizer;

    @picocli.CommandLine.Mixin
    EmbedderOptions embedding;

    @Parameters(arity = "1..*", paramLabel = "QUERY", description = "The query (words are joined).")
    List<String> query;

    @Override
    public Integer call() throws Exception {
        try (SearchIndex idx = SearchIndex.open(index)) {
            IndexMetadata meta = idx.metadata();
            Embedder embedder = mode.equalsIgnoreCase("bm25") || !meta.dense() ? null
                    : embedding.forQueries(meta, onnxModel, tokenizer);
            String q = String.join(" ", query);
            List<Passage> hits = idx.retriever(mode, embedder).search(q, k);
            if (hits.isEmpty()) {
                System.out.println("No passage matches \"" + q + "\".");
            }
            int rank = 1;
            for (Passage p : hits) {
                System.out.printf("%2d. %.4f  [%s] %s%n    %s%n", rank++, p.score(), p.id(), p.title(), abbreviate(p.text()));
            }
        }
        return 0;
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
