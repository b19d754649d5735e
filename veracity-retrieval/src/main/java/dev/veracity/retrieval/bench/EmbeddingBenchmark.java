package dev.veracity.retrieval.bench;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.corpus.Document;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Passage embedding throughput alone ({@code ./veracity bench embed}): generated Wikipedia-sized passages (a two-word
 * title and 100 common English words, embedded as {@code title \n text}, as the index embeds them) handed to the
 * embedder in chunks of {@value #CHUNK}, the way {@code IndexBuilder} hands them over, after a warm-up. Prints
 * passages/s and the process CPU time per passage, so that a slow run on a shared machine can be told from a slow
 * embedder.
 */
public final class EmbeddingBenchmark {

    /** Passages handed to the embedder per call. */
    static final int CHUNK = 256;

    /**
     * The figures.
     *
     * @param passages           passages embedded (after the warm-up)
     * @param passagesPerSecond  wall-clock throughput
     * @param cpuMsPerPassage    process CPU time per passage (all threads)
     */
    public record Result(long passages, double passagesPerSecond, double cpuMsPerPassage) {
    }

    private EmbeddingBenchmark() {
    }

    public static Result run(Embedder embedder, String name, long passages, PrintStream out) {
        SyntheticCorpus corpus = SyntheticCorpus.english(42, 100);
        embedder.embed(texts(corpus, 1_000_000, Math.min(CHUNK, (int) passages))); // warm-up: JIT, native allocators
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        for (long i = 0; i < passages; i += CHUNK) {
            List<float[]> v = embedder.embed(texts(corpus, i, (int) Math.min(CHUNK, passages - i)));
            if (v.isEmpty() || v.getFirst().length != embedder.dimension()) {
                throw new IllegalStateException("the embedder returned no vectors or vectors of the wrong size");
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpuMs = (os.getProcessCpuTime() - cpu0) / 1e6;
        Result r = new Result(passages, passages / seconds, cpuMs / passages);
        out.printf(Locale.ROOT, "Embedding (%s): %,d passages of 100 English words + title in %.1f s = %,.0f passages/s;"
                        + " %.1f ms CPU per passage, %d cores%n", name, passages, seconds, r.passagesPerSecond(),
                r.cpuMsPerPassage(), Runtime.getRuntime().availableProcessors());
        return r;
    }

    private static List<String> texts(SyntheticCorpus corpus, long first, int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Document d = corpus.passage(first + i);
            out.add(d.title() + "\n" + d.text());
        }
        return out;
    }
}
