/**
 * OpenSearch as a retrieval back end beside Lucene folders: {@link dev.veracity.retrieval.opensearch.OpenSearchIndexer}
 * loads a corpus (bulk, resumable, 429-aware) into an index mapped like ours (BM25 k1 = 0.9, b = 0.4, Anserini's
 * analysis chain, {@code knn_vector} on the lucene engine), and {@link dev.veracity.retrieval.opensearch.OpenSearchIndex}
 * searches it BM25, dense or hybrid. Talks HTTP through the official opensearch-java client; needs no server jars.
 */
package dev.veracity.retrieval.opensearch;
