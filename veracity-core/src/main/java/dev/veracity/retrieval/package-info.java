/**
 * The retrieval SPI every method uses: a {@link dev.veracity.retrieval.Retriever} returns ranked
 * {@link dev.veracity.retrieval.Passage}s; an {@link dev.veracity.retrieval.Embedder} turns texts into vectors.
 * Implementations (Lucene BM25, HNSW, hybrid, HTTP) live in {@code veracity-retrieval}; the embedding models that run
 * in process are the optional embed part, found through {@link dev.veracity.retrieval.LocalEmbedders}.
 */
package dev.veracity.retrieval;
