/**
 * The backend for OpenAI-compatible HTTP servers (vLLM, Ollama, the llama.cpp server, OpenAI, gateways), on the
 * official openai-java SDK; and {@link dev.veracity.llm.openai.OpenAiEmbedder}, passage and query vectors from such a
 * server's {@code /v1/embeddings} (vLLM, TEI, Ollama).
 */
package dev.veracity.llm.openai;
