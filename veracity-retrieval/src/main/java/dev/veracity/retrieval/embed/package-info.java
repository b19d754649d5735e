/**
 * Precomputed passage vectors: {@link dev.veracity.retrieval.embed.NpyFile}, NumPy's format, memory-mapped. The
 * in-process encoders (bge-small, e5) are the optional embed part, module {@code veracity-embed-onnx}, reached through
 * {@link dev.veracity.retrieval.LocalEmbedders}.
 */
package dev.veracity.retrieval.embed;
