package dev.veracity.retrieval.bench;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.IndexBuilder;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.retrieval.opensearch.OpenSearchIndex;
import dev.veracity.retrieval.opensearch.OpenSearchIndexer;
import dev.veracity.retrieval.opensearch.OpenSearchLocation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The retrieval benchmark behind {@code ./veracity bench retrieval}: on a {@link SyntheticCorpus}, BM25 indexing
 * passages/s and query p50/p95 at k = 100 (single-threaded queries after a warm-up); then, on a smaller corpus,
 * bge-small embedding passages/s (embedding plus HNSW indexing, all cores) and dense query p50.
 */
public final class RetrievalBenchmark {

    /** OpenSearch's figures on the same corpus and queries. */
    public record OpenSearchResult(long passages, double indexPassagesPerSecond, double bm25P50Ms, double bm25P95Ms) {
    }

    /** Measured figures; dense ones are NaN when the dense part was skipped. */
    public record Result(long passages, double indexPassagesPerSecond, double bm25P50Ms, double bm25P95Ms,
                         long densePassages, double embedPassagesPerSecond, double denseP50Ms) {
    }

    static final int K = 100;
    static final int QUERY_TERMS = 5;

    private RetrievalBenchmark() {
    }

    public static Result run(Path workDir, long passages, long densePassages, int queries, PrintStream out) throws IOException {
        if (densePassages > 0) {
            LocalEmbedders.require(); // before the BM25 half, not after it
        }
        SyntheticCorpus corpus = SyntheticCorpus.standard();
        int cores = Runtime.getRuntime().availableProcessors();
        out.printf("Synthetic corpus: %,d passages of 100 Zipf words (seed 42), %d cores%n", passages, cores);

        Path bm25Dir = workDir.resolve("bm25");
        long t0 = System.nanoTime();
        try (IndexBuilder b = IndexBuilder.create(bm25Dir, null, null)) {
            for (long i = 0; i < passages; i++) {
                b.add(corpus.passage(i));
            }
        }
        double indexSeconds = (System.nanoTime() - t0) / 1e9;
        double indexRate = passages / indexSeconds;
        out.printf("BM25 indexing: %,d passages in %.1f s = %,.0f passages/s (index %,d MB)%n",
                passages, indexSeconds, indexRate, sizeMb(bm25Dir));

        double p50;
        double p95;
        try (LuceneIndex index = LuceneIndex.open(bm25Dir)) {
            double[] ms = latencies(index.bm25(), corpus, passages, queries);
            p50 = percentile(ms, 50);
            p95 = percentile(ms, 95);
        }
        out.printf("BM25 query (k = %d, %d terms, %d queries): p50 %.2f ms, p95 %.2f ms%n", K, QUERY_TERMS, queries, p50, p95);
        delete(bm25Dir);

        if (densePassages <= 0) {
            return new Result(passages, indexRate, p50, p95, 0, Double.NaN, Double.NaN);
        }
        Path denseDir = workDir.resolve("dense");
        Embedder embedder = LocalEmbedders.bgeSmall();
        // Real English words: the embedding model's cost follows subword tokens (see SyntheticCorpus.english).
        SyntheticCorpus english = SyntheticCorpus.english(42, 100);
        out.printf("Dense corpus: %,d passages of 100 common English words (Zipf, seed 42)%n", densePassages);
        long t1 = System.nanoTime();
        try (IndexBuilder b = IndexBuilder.create(denseDir, embedder, null)) {
            for (long i = 0; i < densePassages; i++) {
                b.add(english.passage(i));
            }
        }
        double denseSeconds = (System.nanoTime() - t1) / 1e9;
        double embedRate = densePassages / denseSeconds;
        out.printf("Dense (bge-small-en-v1.5-q) embedding + HNSW indexing: %,d passages in %.1f s = %,.0f passages/s%n",
                densePassages, denseSeconds, embedRate);
        double denseP50;
        try (LuceneIndex index = LuceneIndex.open(denseDir)) {
            double[] ms = latencies(index.dense(embedder), english, densePassages, Math.min(queries, 200));
            denseP50 = percentile(ms, 50);
        }
        out.printf("Dense query (embed query + HNSW, k = %d): p50 %.2f ms%n", K, denseP50);
        delete(denseDir);
        return new Result(passages, indexRate, p50, p95, densePassages, embedRate, denseP50);
    }

    /**
     * The BM25 half on an OpenSearch index: the same synthetic corpus bulk-loaded ({@link OpenSearchIndexer}, batches of
     * {@value OpenSearchIndexer#DEFAULT_BATCH}, one request in flight, refresh included) and the same queries, timed from
     * this client (HTTP included). The index must not exist yet; it is deleted after.
     */
    public static OpenSearchResult runOpenSearch(OpenSearchLocation location, long passages, int queries, PrintStream out) {
        if (OpenSearchIndex.exists(location)) {
            throw new IllegalArgumentException("index " + location + " exists: bench retrieval --opensearch loads a new"
                    + " index (and deletes it after): name one that does not exist");
        }
        SyntheticCorpus corpus = SyntheticCorpus.standard();
        double indexRate;
        double p50;
        double p95;
        try { // the bench's index is deleted whatever happens, so that the next bench can make it again
            long t0 = System.nanoTime();
            try (OpenSearchIndexer load = OpenSearchIndexer.open(location, null, OpenSearchIndexer.DEFAULT_BATCH, 1,
                    null)) {
                for (long i = 0; i < passages; i++) {
                    load.add(corpus.passage(i));
                }
                load.finish();
            }
            double indexSeconds = (System.nanoTime() - t0) / 1e9;
            indexRate = passages / indexSeconds;
            out.printf("OpenSearch BM25 indexing (%s): %,d passages in %.1f s = %,.0f passages/s%n", location, passages,
                    indexSeconds, indexRate);
            try (OpenSearchIndex index = OpenSearchIndex.open(location)) {
                double[] ms = latencies(index.bm25(), corpus, passages, queries);
                p50 = percentile(ms, 50);
                p95 = percentile(ms, 95);
            }
        } finally {
            OpenSearchIndex.delete(location);
        }
        out.printf("OpenSearch BM25 query (k = %d, %d terms, %d queries, over HTTP): p50 %.2f ms, p95 %.2f ms%n", K,
                QUERY_TERMS, queries, p50, p95);
        return new OpenSearchResult(passages, indexRate, p50, p95);
    }

    private static double[] latencies(Retriever r, SyntheticCorpus corpus, long passages, int queries) {
        for (int j = 0; j < Math.min(200, queries); j++) { // warm-up: JIT and page cache
            r.search(corpus.query(1_000_000 + j, passages, QUERY_TERMS), K);
        }
        double[] ms = new double[queries];
        for (int j = 0; j < queries; j++) {
            String q = corpus.query(j, passages, QUERY_TERMS);
            long s = System.nanoTime();
            r.search(q, K);
            ms[j] = (System.nanoTime() - s) / 1e6;
        }
        return ms;
    }

    /** Nearest-rank percentile. */
    static double percentile(double[] values, double p) {
        double[] v = values.clone();
        Arrays.sort(v);
        int rank = (int) Math.ceil(p / 100 * v.length);
        return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
    }

    private static long sizeMb(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.mapToLong(p -> p.toFile().length()).sum() >> 20;
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

}
