package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.Embedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.TopDocs;

/**
 * Dense search: the query embedded with the index's model (and its query prefix), then HNSW nearest neighbours
 * by dot product on unit vectors (= cosine). Scores are Lucene's {@code (1 + cos) / 2}.
 */
public final class DenseRetriever implements Retriever {

    private final LuceneIndex index;
    private final Embedder embedder;

    DenseRetriever(LuceneIndex index, Embedder embedder) {
        this.index = index;
        IndexMetadata m = index.metadata();
        if (!m.dense()) {
            throw new IllegalArgumentException("This index has no vectors: rebuild it with --dense, or search with --mode bm25");
        }
        this.embedder = Objects.requireNonNull(embedder, "dense search needs the embedder the index was built with");
        if (!m.embeddingModel().equals(embedder.name()) || m.dimension() != embedder.dimension()) {
            throw new IllegalArgumentException("This index was embedded with " + m.embeddingModel() + " (" + m.dimension()
                    + " dimensions), not " + embedder.name() + ": query it with the same model");
        }
    }

    @Override
    public List<Passage> search(String query, int k) {
        return index.passages(topDocs(query, k));
    }

    TopDocs topDocs(String query, int k) {
        try {
            return index.searcher().search(new KnnFloatVectorQuery(IndexFields.VECTOR, embedder.embedQuery(query), k), k);
        } catch (IOException e) {
            throw new UncheckedIOException("dense search failed: " + e.getMessage(), e);
        }
    }

    /** Nearest neighbours of an already embedded query. */
    TopDocs topDocs(float[] queryVector, int k) {
        try {
            return index.searcher().search(new KnnFloatVectorQuery(IndexFields.VECTOR, queryVector, k), k);
        } catch (IOException e) {
            throw new UncheckedIOException("dense search failed: " + e.getMessage(), e);
        }
    }

    LuceneIndex index() {
        return index;
    }
}
