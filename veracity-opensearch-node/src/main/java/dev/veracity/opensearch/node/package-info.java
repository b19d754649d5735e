/** Test support: a real OpenSearch node in a child JVM with its own class path (OpenSearch brings its own Lucene). */
package dev.veracity.opensearch.node;
