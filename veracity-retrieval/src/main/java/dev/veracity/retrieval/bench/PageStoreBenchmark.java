package dev.veracity.retrieval.bench;

import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.react.PageFormat;
import dev.veracity.retrieval.react.PageStore;
import dev.veracity.retrieval.react.PageStoreBuilder;
import dev.veracity.retrieval.react.WikiEnvironment;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The page store as Reasoning Court's agents use it ({@code ./veracity bench pages}): build a store of generated
 * pages, open it again, then time ReAct {@code Search[...]} steps through the {@link WikiEnvironment}: half for
 * existing titles (exact lookup, first five sentences), half for names without a page (the "Similar:" BM25 search
 * over titles and leads).
 */
public final class PageStoreBenchmark {

    /**
     * The figures.
     *
     * @param pages            pages in the store
     * @param buildPagesPerSec pages written per second
     * @param openMs           time to open the built store
     * @param searchesPerSec   Search steps per second, hits and misses together, one thread
     * @param hitP50Ms         median Search of an existing title
     * @param missP50Ms        median Search of a missing name (with its Similar list)
     */
    public record Result(long pages, double buildPagesPerSec, double openMs, double searchesPerSec, double hitP50Ms,
                         double missP50Ms) {
    }

    private PageStoreBenchmark() {
    }

    public static Result run(Path dir, long pages, int searches, PrintStream out) throws IOException {
        SyntheticCorpus corpus = SyntheticCorpus.english(7, 60);
        long t0 = System.nanoTime();
        try (PageStoreBuilder b = PageStoreBuilder.create(dir, PageFormat.JSONL, Path.of("generated"), null)) {
            for (long i = 0; i < pages; i++) {
                b.add(page(corpus, i));
            }
        }
        double buildSeconds = (System.nanoTime() - t0) / 1e9;
        long o0 = System.nanoTime();
        try (PageStore store = PageStore.open(dir)) {
            double openMs = (System.nanoTime() - o0) / 1e6;
            SplittableRandom rnd = new SplittableRandom(42);
            for (int i = 0; i < Math.min(500, searches); i++) { // warm-up
                new WikiEnvironment(store).step("Search[" + title(corpus, rnd.nextLong(pages)) + "]");
                new WikiEnvironment(store).step("Search[" + corpus.query(i, pages, 2) + "]");
            }
            long[] hits = new long[searches / 2 + 1];
            long[] misses = new long[searches / 2 + 1];
            int h = 0;
            int m = 0;
            long s0 = System.nanoTime();
            for (int i = 0; i < searches; i++) {
                boolean hit = i % 2 == 0;
                String entity = hit ? title(corpus, rnd.nextLong(pages)) : corpus.query(10_000 + i, pages, 2);
                long q0 = System.nanoTime();
                String obs = new WikiEnvironment(store).step("Search[" + entity + "]");
                long took = System.nanoTime() - q0;
                if (hit) {
                    if (obs.startsWith("Could not find")) {
                        throw new IllegalStateException("the store lost page '" + entity + "'");
                    }
                    hits[h++] = took;
                } else {
                    misses[m++] = took;
                }
            }
            double seconds = (System.nanoTime() - s0) / 1e9;
            Result r = new Result(store.size(), pages / buildSeconds, openMs, searches / seconds, p50(hits, h), p50(misses, m));
            out.printf(Locale.ROOT, "Page store: %,d generated pages built at %,.0f pages/s; opened in %.1f ms%n",
                    r.pages(), r.buildPagesPerSec(), r.openMs());
            out.printf(Locale.ROOT, "ReAct Search: %,.0f searches/s on one thread (%,d searches, half hits, half misses);"
                    + " p50 hit %.3f ms, p50 miss with Similar %.3f ms%n", r.searchesPerSec(), searches, r.hitP50Ms(),
                    r.missP50Ms());
            return r;
        }
    }

    private static String title(SyntheticCorpus corpus, long i) {
        return corpus.passage(i).title() + " " + i;
    }

    /** A page of 5 sentences of 12 words, titled by its passage's title and its number (titles are unique). */
    static dev.veracity.retrieval.PageSource.Page page(SyntheticCorpus corpus, long i) {
        Document d = corpus.passage(i);
        String[] words = d.text().split(" ");
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < words.length; w++) {
            String word = w % 12 == 0 ? Character.toUpperCase(words[w].charAt(0)) + words[w].substring(1) : words[w];
            sb.append(w == 0 ? "" : " ").append(word).append(w % 12 == 11 ? "." : "");
        }
        return PageStore.page(title(corpus, i), List.of(sb.toString()));
    }

    private static double p50(long[] values, int n) {
        long[] v = Arrays.copyOf(values, n);
        Arrays.sort(v);
        return n == 0 ? 0 : v[n / 2] / 1e6;
    }
}
