package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.util.List;
import org.apache.lucene.search.TopDocs;

/**
 * BM25 and dense results fused by reciprocal rank fusion (Lucene's {@link TopDocs#rrf}, k = 60): each list
 * contributes {@code 1 / (60 + rank)}; both lists are taken {@value #DEPTH} deep (or k, if larger) before fusing.
 */
public final class HybridRetriever implements Retriever {

    public static final int RRF_K = 60;
    static final int DEPTH = 100;

    private final Bm25Retriever bm25;
    private final DenseRetriever dense;

    HybridRetriever(Bm25Retriever bm25, DenseRetriever dense) {
        this.bm25 = bm25;
        this.dense = dense;
    }

    @Override
    public List<Passage> search(String query, int k) {
        if (k <= 0) {
            return List.of();
        }
        int depth = Math.max(k, DEPTH);
        TopDocs sparse = bm25.topDocs(IndexFields.CONTENTS, query, depth);
        TopDocs vector = dense.topDocs(query, depth);
        return dense.index().passages(TopDocs.rrf(k, RRF_K, new TopDocs[] {sparse, vector}));
    }
}
