package dev.veracity.retrieval.bench;

import dev.veracity.retrieval.corpus.Document;
import java.util.SplittableRandom;

/**
 * A generated corpus for benchmarks: passages of {@code words} pseudo-words drawn from a Zipf distribution
 * (exponent 1, like word frequencies in text) over a {@code vocabulary} of consonant-vowel words (none an
 * English stop word), each with a two-word title. Passage {@code i} depends only on the seed and {@code i}, so
 * any passage can be generated alone, in any order, on any thread.
 */
public final class SyntheticCorpus {

    private static final String CONSONANTS = "bcdfghjklmnprstvz";
    private static final String VOWELS = "aeiou";

    private final long seed;
    private final int words;
    private final int passagesPerPage;
    private final String[] vocabulary;
    private final double[] cumulative;

    public SyntheticCorpus(long seed, int vocabularySize, int words) {
        this(seed, words, 1, pseudoWords(vocabularySize));
    }

    private SyntheticCorpus(long seed, int words, int passagesPerPage, String[] vocabulary) {
        int vocabularySize = vocabulary.length;
        if (vocabularySize < 2 || words < 1) {
            throw new IllegalArgumentException("need a vocabulary of >= 2 words and passages of >= 1 word");
        }
        this.seed = seed;
        this.words = words;
        this.passagesPerPage = passagesPerPage;
        this.vocabulary = vocabulary;
        this.cumulative = new double[vocabularySize];
        double sum = 0;
        for (int r = 0; r < vocabularySize; r++) {
            sum += 1.0 / (r + 1);
            cumulative[r] = sum;
        }
        for (int r = 0; r < vocabularySize; r++) {
            cumulative[r] /= sum;
        }
    }

    private static String[] pseudoWords(int n) {
        String[] v = new String[Math.max(0, n)];
        for (int r = 0; r < v.length; r++) {
            v[r] = word(r);
        }
        return v;
    }

    /**
     * Passages of real English words (a list of a few hundred common ones, Zipf-distributed) for the dense
     * benchmark: an embedding model's cost follows its subword tokens, and pseudo-words split into three or four
     * times as many tokens as English does, which would understate throughput on real text.
     */
    public static SyntheticCorpus english(long seed, int words) {
        try (var in = SyntheticCorpus.class.getResourceAsStream("english-words.txt")) {
            String[] list = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toArray(String[]::new);
            return new SyntheticCorpus(seed, words, 1, list);
        } catch (java.io.IOException | NullPointerException e) {
            throw new IllegalStateException("english-words.txt is missing from the retrieval jar", e);
        }
    }

    /**
     * Wikipedia-shaped passages for the indexing benchmark: DPR's 100-word passages, five consecutive ones per page (they
     * share its title, as DPR's passages of one article do), words Zipf-distributed over a vocabulary of a million
     * (DPR's 21M passages have millions of distinct terms; a small vocabulary would make the term dictionary too easy).
     */
    public static SyntheticCorpus wikipedia() {
        return new SyntheticCorpus(42, 100, 5, pseudoWords(1_000_000));
    }

    /** 100-word passages over 100,000 words, seed 42. */
    public static SyntheticCorpus standard() {
        return new SyntheticCorpus(42, 100_000, 100);
    }

    /** Word of rank r: r in base 85 as consonant-vowel syllables, at least two ("baba", "babe", ...). */
    static String word(int r) {
        int syllables = CONSONANTS.length() * VOWELS.length();
        StringBuilder sb = new StringBuilder();
        int x = r;
        int n = 0;
        do {
            int s = x % syllables;
            sb.append(CONSONANTS.charAt(s / VOWELS.length())).append(VOWELS.charAt(s % VOWELS.length()));
            x /= syllables;
            n++;
        } while (x > 0 || n < 2);
        return sb.toString();
    }

    public Document passage(long i) {
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
        String title = passagesPerPage == 1 ? draw(rnd) + " " + draw(rnd) : pageTitle(i / passagesPerPage);
        StringBuilder sb = new StringBuilder(words * 7);
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                sb.append(' ');
            }
            sb.append(draw(rnd));
        }
        return new Document("p" + i, title, sb.toString());
    }

    private String pageTitle(long page) {
        SplittableRandom rnd = new SplittableRandom(~(seed * 0x9E3779B97F4A7C15L) - page);
        String a = draw(rnd);
        String b = draw(rnd);
        return Character.toUpperCase(a.charAt(0)) + a.substring(1) + " " + Character.toUpperCase(b.charAt(0)) + b.substring(1);
    }

    /**
     * Writes passages {@code 0 .. n-1} as DPR's {@code psgs_w100.tsv}: a header line {@code id \t text \t title}, then one
     * passage per line with 1-based ids, as DPR numbers them.
     */
    public void writeDprTsv(java.nio.file.Path file, long n) throws java.io.IOException {
        try (var out = new java.io.BufferedWriter(new java.io.OutputStreamWriter(java.nio.file.Files.newOutputStream(file),
                java.nio.charset.StandardCharsets.UTF_8), 1 << 20)) {
            out.write("id\ttext\ttitle\n");
            for (long i = 0; i < n; i++) {
                Document d = passage(i);
                out.write(Long.toString(i + 1));
                out.write('\t');
                out.write(d.text());
                out.write('\t');
                out.write(d.title());
                out.write('\n');
            }
        }
    }

    /** Query {@code j}: {@code terms} words of a random passage among the first {@code passages}. */
    public String query(long j, long passages, int terms) {
        SplittableRandom rnd = new SplittableRandom(~seed + 31 * j);
        String[] ws = passage(rnd.nextLong(passages)).text().split(" ");
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < terms; t++) {
            sb.append(t == 0 ? "" : " ").append(ws[rnd.nextInt(ws.length)]);
        }
        return sb.toString();
    }

    private String draw(SplittableRandom rnd) {
        double u = rnd.nextDouble();
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return vocabulary[lo];
    }
}
