package dev.veracity.retrieval;

import java.util.List;
import java.util.function.BiFunction;

/**
 * Finds passages for a query: Lucene BM25, dense or hybrid search in {@code veracity-retrieval}, an HTTP endpoint,
 * or the user's own code. Implementations are thread-safe.
 */
public interface Retriever extends AutoCloseable {

    /** The {@code k} best passages for the query, best first (fewer when the corpus has fewer matches). */
    List<Passage> search(String query, int k);

    @Override
    default void close() {
    }

    /** The user's own retriever as a function of query and k. */
    static Retriever of(BiFunction<String, Integer, List<Passage>> search) {
        return search::apply;
    }
}
