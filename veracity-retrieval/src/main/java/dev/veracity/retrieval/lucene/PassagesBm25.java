package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.corpus.Document;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.index.FieldInvertState;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.Version;

/**
 * BM25 over a handful of passages held in memory (one question's own: RAMDocs' documents, HotpotQA's paragraphs),
 * scored exactly as {@link Bm25Retriever} scores an index of them, without building one. Building a Lucene index per
 * question (writer, flush, codecs, reader) cost C-3PO more CPU than any other part of its question; these passages need
 * only their term counts. What an index would do is done by Lucene's own parts: the same analyzer over the same text
 * ({@link IndexFields#contents}), the same query terms ({@link Bm25Retriever#termCounts}, each boosted by its count),
 * {@link BM25Similarity}'s norm ({@link Similarity#computeNorm}, the one-byte length) and scorer with the index's
 * statistics, and the clauses' scores summed as a double and cast to a float, as Lucene's disjunction does. A test
 * holds the scores to an in-memory index's, float for float, over every RAMDocs question.
 */
public final class PassagesBm25 {

    private static final Analyzer ANALYZER = new AnseriniAnalyzer();
    private static final BM25Similarity SIMILARITY = new BM25Similarity(Bm25Retriever.K1, Bm25Retriever.B);

    /** Per passage, its terms' frequencies; and its encoded length (the index's norm). */
    private final List<Map<String, Integer>> frequencies;
    private final long[] norms;
    /** Per term, the passages holding it (in order) and its total frequency. */
    private final Map<String, int[]> postings = new HashMap<>();
    private final Map<String, Long> totalFrequency = new HashMap<>();
    private final CollectionStatistics collection;
    private final String field;

    /** The passages' {@link IndexFields#contents} (title and text), as an index of them holds its contents field. */
    public PassagesBm25(List<Document> passages) {
        this(IndexFields.CONTENTS, passages.stream().map(IndexFields::contents).toList());
    }

    /**
     * One field of a handful of documents, given as its text per document (a page store's titles, or its leads): BM25
     * as an index with that field analysed by {@link AnseriniAnalyzer} (frequencies and norms, no positions) scores it.
     */
    public PassagesBm25(String field, List<String> texts) {
        this.field = field;
        int n = texts.size();
        frequencies = new ArrayList<>(n);
        norms = new long[n];
        Map<String, List<Integer>> holders = new HashMap<>();
        long docCount = 0;
        long sumTotalTermFreq = 0;
        long sumDocFreq = 0;
        for (int d = 0; d < n; d++) {
            Map<String, Integer> tf = new HashMap<>();
            int length = 0;
            int overlaps = 0;
            try (TokenStream ts = ANALYZER.tokenStream(field, texts.get(d))) {
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                PositionIncrementAttribute increment = ts.addAttribute(PositionIncrementAttribute.class);
                ts.reset();
                while (ts.incrementToken()) {
                    length++;
                    overlaps += increment.getPositionIncrement() == 0 ? 1 : 0;
                    tf.merge(term.toString(), 1, Integer::sum);
                }
                ts.end();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // analysing a String does no I/O
            }
            frequencies.add(tf);
            // the norm the index writer stores for the field (a passage with no term has none, and matches nothing)
            norms[d] = SIMILARITY.computeNorm(new FieldInvertState(Version.LATEST.major, field,
                    IndexOptions.DOCS_AND_FREQS, length, length, overlaps, 0, 0, tf.size()));
            if (!tf.isEmpty()) {
                docCount++;
                sumTotalTermFreq += length;
                sumDocFreq += tf.size();
            }
            for (Map.Entry<String, Integer> e : tf.entrySet()) {
                holders.computeIfAbsent(e.getKey(), t -> new ArrayList<>()).add(d);
                totalFrequency.merge(e.getKey(), (long) e.getValue(), Long::sum);
            }
        }
        holders.forEach((t, ds) -> postings.put(t, ds.stream().mapToInt(Integer::intValue).toArray()));
        collection = docCount == 0 ? null : new CollectionStatistics(field, n, docCount, sumTotalTermFreq, sumDocFreq);
    }

    /**
     * Each passage's BM25 score for {@code query}, in the passages' order: what an index of them would give the
     * passages the query matches, and 0 for the others.
     */
    public float[] scores(String query) {
        double[] sum = sums(Bm25Retriever.termCounts(ANALYZER, field, query), 1f);
        float[] out = new float[sum.length];
        for (int d = 0; d < out.length; d++) {
            out[d] = (float) sum[d];
        }
        return out;
    }

    /**
     * Per document, the scores of the clauses of a bag of words of these {@code terms} (each boosted by its count
     * times {@code boost}, as a {@code BoostQuery} around the bag boosts its terms), summed as a double as Lucene's
     * disjunction sums them before its float; 0 for a document no term matches.
     */
    public double[] sums(Map<String, Integer> terms, float boost) {
        double[] sum = new double[norms.length];
        if (collection == null) {
            return sum;
        }
        for (Map.Entry<String, Integer> t : terms.entrySet()) {
            int[] holding = postings.get(t.getKey());
            if (holding == null) {
                continue;
            }
            Similarity.SimScorer scorer = SIMILARITY.scorer(boost * t.getValue(), collection,
                    new TermStatistics(new BytesRef(t.getKey()), holding.length, totalFrequency.get(t.getKey())));
            for (int d : holding) {
                sum[d] += scorer.score(frequencies.get(d).get(t.getKey()), norms[d]);
            }
        }
        return sum;
    }

    /** The query's analysed terms with their counts ({@link Bm25Retriever#termCounts}), as a bag of words asks. */
    public static Map<String, Integer> terms(String field, String query) {
        return Bm25Retriever.termCounts(ANALYZER, field, query);
    }

    /** The passages. */
    public int size() {
        return norms.length;
    }
}
