package dev.veracity.retrieval.lucene;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.corpus.Document;
import java.util.List;

/**
 * Where a dense index's passage vectors come from: an {@link Embedder} run on the passages (in process or over HTTP),
 * or vectors computed elsewhere and imported ({@link PrecomputedVectors}).
 */
public interface PassageVectors {

    /** The model's name, recorded in the index metadata; queries must be embedded by the same model. */
    String model();

    int dimension();

    /**
     * The vectors of passages {@code first}, {@code first + 1}, ... (0-based positions in the corpus), in order.
     * Called from several threads at once.
     */
    List<float[]> vectors(long first, List<Document> passages);

    /** Called once every passage was added, with their number: a source that must be used up checks it here. */
    default void finish(long passages) {
    }

    /** Vectors embedded from the text BM25 indexes ({@code title \n text}). */
    static PassageVectors embedded(Embedder embedder) {
        return new PassageVectors() {
            @Override
            public String model() {
                return embedder.name();
            }

            @Override
            public int dimension() {
                return embedder.dimension();
            }

            @Override
            public List<float[]> vectors(long first, List<Document> passages) {
                return embedder.embed(passages.stream().map(IndexFields::contents).toList());
            }
        };
    }
}
