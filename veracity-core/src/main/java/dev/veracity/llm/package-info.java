/**
 * The model SPI: what every agent sends ({@link dev.veracity.llm.LlmRequest}: chat messages or a raw prompt,
 * with sampling settings) and gets back ({@link dev.veracity.llm.LlmResponse}: n
 * {@link dev.veracity.llm.Completion}s with finish reasons, token usage and optional logprobs), and the
 * {@link dev.veracity.llm.LlmBackend} interface that OpenAI-compatible servers, LangChain4j chat models and an
 * embedded llama.cpp implement. Failures are typed ({@link dev.veracity.llm.LlmException},
 * {@link dev.veracity.llm.ErrorKind}).
 */
package dev.veracity.llm;
