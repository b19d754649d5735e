/**
 * The retrieval benchmark ({@link dev.veracity.retrieval.bench.RetrievalBenchmark}) on a generated Zipf corpus
 * ({@link dev.veracity.retrieval.bench.SyntheticCorpus}, which also writes DPR-format corpora for the indexing
 * benchmark), and the embedding throughput benchmark ({@link dev.veracity.retrieval.bench.EmbeddingBenchmark}).
 */
package dev.veracity.retrieval.bench;
