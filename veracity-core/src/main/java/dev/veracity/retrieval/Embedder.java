package dev.veracity.retrieval;

import java.util.List;

/** Turns texts into vectors: for dense retrieval and for methods that cluster documents (Speculative RAG). */
public interface Embedder {

    /** One vector per text, in order; all of {@link #dimension()} floats, L2-normalised. */
    List<float[]> embed(List<String> texts);

    int dimension();
}
