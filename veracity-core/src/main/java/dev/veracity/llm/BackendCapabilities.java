package dev.veracity.llm;

/**
 * What a backend can do natively. The engine adapts where it can (n &gt; 1 becomes n calls); a request for
 * something a backend cannot do fails with {@link ErrorKind#UNSUPPORTED} rather than being silently ignored.
 *
 * @param chat      accepts chat messages
 * @param rawPrompt accepts a raw prompt (text completion)
 * @param nativeN   returns n &gt; 1 samples from one request
 * @param seed      honours a sampling seed
 * @param logprobs  returns token log-probabilities
 * @param topK      honours top_k
 */
public record BackendCapabilities(boolean chat, boolean rawPrompt, boolean nativeN, boolean seed, boolean logprobs,
                                  boolean topK) {
}
