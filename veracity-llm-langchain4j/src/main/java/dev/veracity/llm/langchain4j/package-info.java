/**
 * The backend for any LangChain4j {@code ChatModel}: every provider LangChain4j supports becomes a Veracity
 * backend.
 */
package dev.veracity.llm.langchain4j;
