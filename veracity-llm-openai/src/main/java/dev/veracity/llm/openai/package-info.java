/**
 * The backend for OpenAI-compatible HTTP servers (vLLM, Ollama, the llama.cpp server, OpenAI, gateways): the protocol's
 * request bodies ({@link dev.veracity.llm.openai.WireRequests}) and answers ({@link dev.veracity.llm.openai.WireResponses})
 * on the JDK's HTTP client ({@link dev.veracity.llm.openai.JsonPost}); and
 * {@link dev.veracity.llm.openai.OpenAiEmbedder}, passage and query vectors from such a server's {@code /v1/embeddings}
 * (vLLM, TEI, Ollama), on the same transport. The openai-java SDK is the reference these are tested against, not a
 * runtime dependency.
 */
package dev.veracity.llm.openai;
