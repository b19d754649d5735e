/**
 * Dense encoders: {@link dev.veracity.retrieval.embed.OnnxEmbedder} (bge-small-en-v1.5 from the jar by default,
 * e5-small-v2 from a user-supplied ONNX file) with each model's query and passage prefixes, run on ONNX Runtime;
 * {@link dev.veracity.retrieval.embed.NpyFile}, precomputed vectors in NumPy's format, memory-mapped.
 */
package dev.veracity.retrieval.embed;
