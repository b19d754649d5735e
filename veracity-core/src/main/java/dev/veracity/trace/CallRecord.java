package dev.veracity.trace;

import java.util.List;

/**
 * One traced model call: who asked what, what came back, what it cost. Times are epoch microseconds.
 *
 * <p>{@code submittedMicros} is when the caller asked; {@code startedMicros} when the call got a concurrency
 * permit (or was answered from the cache); the gap is queueing inside our client. {@code latencyMicros} covers
 * the attempts and back-off waits, not the queue.
 *
 * @param callId           unique id of the call
 * @param context          run, question, method, role, step
 * @param backendId        the backend's id (never a credential)
 * @param model            the model asked
 * @param prompt           the prompt: the raw prompt, or the messages as JSON
 * @param settings         the sampling settings as JSON (n, temperature, seed, sample indices, ...)
 * @param outputs          the completions' texts in sample order (empty when the call failed)
 * @param finishReasons    the completions' finish reasons
 * @param promptTokens     prompt tokens billed (0 for a cache hit)
 * @param completionTokens completion tokens billed (0 for a cache hit)
 * @param cachedTokens     tokens a cache hit saved
 * @param submittedMicros  when the caller asked
 * @param startedMicros    when the call left our queue
 * @param endedMicros      when it returned or failed
 * @param cacheHit         every sample came from the cache
 * @param attempts         backend attempts made (0 for a full cache hit)
 * @param retries          attempts after the first
 * @param error            the failure summary, or null
 */
public record CallRecord(String callId, CallContext context, String backendId, String model, String prompt,
                         String settings, List<String> outputs, List<String> finishReasons, int promptTokens,
                         int completionTokens, int cachedTokens, long submittedMicros, long startedMicros,
                         long endedMicros, boolean cacheHit, int attempts, int retries, String error) {

    public CallRecord {
        outputs = outputs == null ? List.of() : List.copyOf(outputs);
        finishReasons = finishReasons == null ? List.of() : List.copyOf(finishReasons);
    }

    public long latencyMicros() {
        return endedMicros - startedMicros;
    }

    public long queueMicros() {
        return startedMicros - submittedMicros;
    }

    public int totalTokens() {
        return promptTokens + completionTokens;
    }

    public boolean failed() {
        return error != null;
    }
}
