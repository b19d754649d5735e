package dev.veracity.llm;

import java.time.Duration;

/**
 * A language model behind one protocol: an OpenAI-compatible server, a LangChain4j {@code ChatModel}, an
 * embedded llama.cpp. One call of {@link #generate} is one attempt: no retries, no cache, no tracing; the
 * {@link dev.veracity.llm.client.LlmClient} adds those around it.
 *
 * <p>Implementations are thread-safe: the client calls them from many virtual threads at once, within the
 * client's concurrency limit. They must return {@code request.n()} completions numbered from
 * {@code request.firstSampleIndex()}, or throw an {@link LlmException} of the right {@link ErrorKind}; any other
 * exception is a bug and is reported as {@link ErrorKind#INTERNAL}.
 */
public interface LlmBackend extends AutoCloseable {

    /**
     * A stable identity for the cache key and traces, such as {@code openai:http://host:8000/v1}. It must not
     * contain credentials.
     */
    String id();

    /** The model used when a request names none. */
    String defaultModel();

    BackendCapabilities capabilities();

    /**
     * Runs one attempt.
     *
     * @param request what to ask
     * @param timeout the longest this attempt may take; past it the backend throws {@link ErrorKind#TIMEOUT}
     */
    LlmResponse generate(LlmRequest request, Duration timeout);

    @Override
    default void close() {
    }
}
