/**
 * Retrieval over HTTP in the Search-R1 / VeRL protocol: {@link dev.veracity.retrieval.http.RetrievalServer} serves
 * any retriever to RL trainers; {@link dev.veracity.retrieval.http.HttpRetriever} plugs a remote one in.
 */
package dev.veracity.retrieval.http;
