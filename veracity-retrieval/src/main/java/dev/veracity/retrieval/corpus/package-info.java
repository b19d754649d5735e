/**
 * Corpora: {@link dev.veracity.retrieval.corpus.Document}s read from BEIR JSONL, DPR's Wikipedia TSV, CRAG's HTML
 * pages or a dataset's own documents ({@link dev.veracity.retrieval.corpus.CorpusReader}), and DPR's 100-word
 * passage splitting ({@link dev.veracity.retrieval.corpus.Passages}).
 */
package dev.veracity.retrieval.corpus;
