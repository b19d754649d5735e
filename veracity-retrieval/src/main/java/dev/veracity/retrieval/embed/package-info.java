/**
 * Dense encoders: {@link dev.veracity.retrieval.embed.OnnxEmbedder} (bge-small-en-v1.5 from the jar by default,
 * e5-small-v2 from a user-supplied ONNX file) with each model's query and passage prefixes.
 */
package dev.veracity.retrieval.embed;
