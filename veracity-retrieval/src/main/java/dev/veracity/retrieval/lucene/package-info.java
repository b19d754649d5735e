/**
 * Lucene-backed retrieval with Anserini's conventions: {@link dev.veracity.retrieval.lucene.IndexBuilder} builds an
 * index once (BM25 fields, optional HNSW vectors, committed every N passages and resumable after a kill), the vectors
 * embedded or imported ({@link dev.veracity.retrieval.lucene.PassageVectors},
 * {@link dev.veracity.retrieval.lucene.PrecomputedVectors}); {@link dev.veracity.retrieval.lucene.LuceneIndex} opens it
 * read-only, shared by {@link dev.veracity.retrieval.lucene.Bm25Retriever} (k1 0.9, b 0.4, bag of words),
 * {@link dev.veracity.retrieval.lucene.DenseRetriever} and {@link dev.veracity.retrieval.lucene.HybridRetriever}
 * (reciprocal rank fusion, k = 60). {@link dev.veracity.retrieval.lucene.LuceneIndex#inMemory} indexes documents in
 * memory; {@link dev.veracity.retrieval.lucene.PassagesBm25} scores one question's own passages as such an index
 * would, without building one.
 */
package dev.veracity.retrieval.lucene;
