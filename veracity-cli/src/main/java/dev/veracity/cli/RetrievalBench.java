package dev.veracity.cli;

import dev.veracity.retrieval.bench.RetrievalBenchmark;
import dev.veracity.retrieval.opensearch.OpenSearchLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench retrieval}: BM25 indexing and query latency, dense embedding and query latency; with
 * {@code --opensearch}, BM25 on an OpenSearch index beside Lucene's.
 */
@Command(name = "retrieval", mixinStandardHelpOptions = true,
        description = "Index a generated corpus of 100-word Zipf passages and print indexing passages/s, BM25 p50/p95 at "
                + "k = 100, embedding passages/s and dense p50.")
final class RetrievalBench implements Callable<Integer> {

    @Option(names = "--passages", defaultValue = "1000000", description = "BM25 corpus size (default ${DEFAULT-VALUE}).")
    long passages;

    @Option(names = "--dense-passages", defaultValue = "50000", description = "Dense corpus size; 0 skips dense (default ${DEFAULT-VALUE}).")
    long densePassages;

    @Option(names = "--queries", defaultValue = "1000", description = "Timed queries (default ${DEFAULT-VALUE}).")
    int queries;

    @Option(names = "--opensearch", paramLabel = "URL",
            description = "Also load the BM25 corpus into this OpenSearch index (opensearch://HOST:9200/NAME; must not exist,"
                    + " deleted after) and time the same queries there: an OpenSearch line beside Lucene's.")
    String opensearch;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Where the indexes go (default: a temporary directory, deleted after).")
    Path workDir;

    @Override
    public Integer call() throws Exception {
        if (passages < 1 || densePassages < 0 || queries < 1) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--passages and --queries must be >= 1, --dense-passages >= 0");
        }
        OpenSearchLocation location = opensearch == null ? null : OpenSearchLocation.parse(opensearch);
        Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("veracity-bench-retrieval");
        try {
            RetrievalBenchmark.run(dir, passages, densePassages, queries, System.out);
            if (location != null) {
                RetrievalBenchmark.runOpenSearch(location, passages, queries, System.out);
            }
        } finally {
            if (workDir == null) {
                Files.deleteIfExists(dir);
            }
        }
        return 0;
    }
}
