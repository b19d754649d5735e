/** Lucene-backed retrieval. */
package dev.veracity.retrieval.lucene;
