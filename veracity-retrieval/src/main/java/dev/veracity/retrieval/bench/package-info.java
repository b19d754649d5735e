/**
 * The retrieval benchmark ({@link dev.veracity.retrieval.bench.RetrievalBenchmark}) on a generated Zipf corpus
 * ({@link dev.veracity.retrieval.bench.SyntheticCorpus}).
 */
package dev.veracity.retrieval.bench;
