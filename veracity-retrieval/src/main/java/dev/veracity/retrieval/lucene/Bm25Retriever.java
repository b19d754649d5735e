package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * BM25 as Anserini runs it: k1 = 0.9, b = 0.4, the query a bag of analysed terms, each a SHOULD
 * {@link TermQuery} boosted by its count in the query (Anserini's {@code BagOfWordsQueryGenerator}). Scores the
 * {@code contents} field only, as Anserini does by default; titles count because {@code contents} holds the title
 * too. {@link #searchField} searches another field ({@code title} for title look-ups).
 */
public final class Bm25Retriever implements Retriever {

    public static final float K1 = 0.9f;
    public static final float B = 0.4f;

    private final LuceneIndex index;

    Bm25Retriever(LuceneIndex index) {
        this.index = index;
    }

    @Override
    public List<Passage> search(String query, int k) {
        return searchField(IndexFields.CONTENTS, query, k);
    }

    /** BM25 over one analysed field ({@code contents} or {@code title}). */
    public List<Passage> searchField(String field, String query, int k) {
        return index.passages(topDocs(field, query, k));
    }

    TopDocs topDocs(String field, String query, int k) {
        Query q = bagOfWords(index.analyzer(), field, query);
        if (q == null || k <= 0) {
            return new TopDocs(new org.apache.lucene.search.TotalHits(0, org.apache.lucene.search.TotalHits.Relation.EQUAL_TO),
                    new org.apache.lucene.search.ScoreDoc[0]);
        }
        try {
            return index.searcher().search(q, k);
        } catch (IOException e) {
            throw new UncheckedIOException("BM25 search failed: " + e.getMessage(), e);
        }
    }

    /** The bag-of-words query, or null when no term survives analysis (empty or all stop words). */
    public static Query bagOfWords(Analyzer analyzer, String field, String query) {
        Map<String, Integer> counts = termCounts(analyzer, field, query);
        if (counts.isEmpty()) {
            return null;
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        counts.forEach((t, n) -> {
            Query tq = new TermQuery(new Term(field, t));
            b.add(n == 1 ? tq : new BoostQuery(tq, n), BooleanClause.Occur.SHOULD);
        });
        return b.build();
    }

    /**
     * The query's analysed terms with their counts, in first-seen order, at most the clause limit of distinct terms:
     * the bag of words every BM25 back end (Lucene, OpenSearch) turns into its query.
     */
    public static Map<String, Integer> termCounts(Analyzer analyzer, String field, String query) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        try (TokenStream ts = analyzer.tokenStream(field, query == null ? "" : query)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                if (counts.size() < IndexSearcher.getMaxClauseCount() || counts.containsKey(term.toString())) {
                    counts.merge(term.toString(), 1, Integer::sum);
                }
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // analysing a String does no I/O
        }
        return counts;
    }
}
