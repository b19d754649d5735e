/**
 * The embed part: the embedding models that run in process, on ONNX Runtime.
 * {@link dev.veracity.embed.onnx.OnnxEmbedder} (bge-small-en-v1.5 from the jar by default, e5-small-v2 from a
 * user-supplied ONNX file) with each model's query and passage prefixes; {@link dev.veracity.embed.onnx.BertEncoder}
 * runs the forward passes. Optional in the runtime: the rest of Veracity reaches these models only through
 * {@link dev.veracity.retrieval.LocalEmbedders}, which finds {@link dev.veracity.embed.onnx.OnnxEmbedderProvider} on the
 * class path.
 */
package dev.veracity.embed.onnx;
