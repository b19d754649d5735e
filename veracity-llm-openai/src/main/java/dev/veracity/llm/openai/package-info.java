/**
 * The backend for OpenAI-compatible HTTP servers (vLLM, Ollama, the llama.cpp server, OpenAI, gateways), on the
 * official openai-java SDK.
 */
package dev.veracity.llm.openai;
