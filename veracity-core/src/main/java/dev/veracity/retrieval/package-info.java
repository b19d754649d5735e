/**
 * The retrieval SPI every method uses: a {@link dev.veracity.retrieval.Retriever} returns ranked
 * {@link dev.veracity.retrieval.Passage}s; an {@link dev.veracity.retrieval.Embedder} turns texts into vectors.
 * Implementations (Lucene BM25, HNSW, hybrid, HTTP) live in {@code veracity-retrieval}.
 */
package dev.veracity.retrieval;
