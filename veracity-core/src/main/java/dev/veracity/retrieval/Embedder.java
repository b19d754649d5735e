package dev.veracity.retrieval;

import java.util.List;

/** Turns texts into vectors: for dense retrieval and for methods that cluster documents (Speculative RAG). */
public interface Embedder {

    /** One vector per text, in order; all of {@link #dimension()} floats, L2-normalised. */
    List<float[]> embed(List<String> texts);

    int dimension();

    /** The model's name: an index records it, so that its queries are embedded by the model its passages were. */
    default String name() {
        return getClass().getName();
    }

    /** A query's vector: a model trained with a query instruction or prefix (bge, e5) adds it here. */
    default float[] embedQuery(String query) {
        return embed(List.of(query)).getFirst();
    }
}
