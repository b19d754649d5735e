package dev.veracity.trace;

import java.util.List;
import java.util.OptionalLong;

/**
 * One traced model call: who asked what, what came back, what it cost. Times are epoch microseconds.
 *
 * <p>{@code submittedMicros} is when the caller asked; {@code startedMicros} when the call got a concurrency
 * permit (or was answered from the cache); the gap is queueing inside our client. {@code latencyMicros} covers
 * the attempts and back-off waits, not the queue.
 *
 * <p>A call is one request of {@code samples} completions (n). The samples the response cache served are counted
 * apart, with the tokens and the latency the requests that first produced them had: {@code promptTokens} and
 * {@code completionTokens} are what this call billed, the {@code cached*} figures what the cache saved, and the two
 * together are what the call used ({@link #usedPromptTokens()}, {@link #modelMicros()}).
 *
 * @param callId                 unique id of the call
 * @param context                run, question, method, role, step
 * @param backendId              the backend's id (never a credential)
 * @param model                  the model asked
 * @param prompt                 the prompt: the raw prompt, or the messages as JSON
 * @param settings               the sampling settings as JSON (n, temperature, seed, sample indices, ...)
 * @param outputs                the completions' texts in sample order (empty when the call failed)
 * @param finishReasons          the completions' finish reasons
 * @param promptTokens           prompt tokens billed (0 for a cache hit)
 * @param completionTokens       completion tokens billed (0 for a cache hit)
 * @param samples                the samples the call asked for (its n)
 * @param cachedSamples          of those, the ones the response cache served
 * @param cachedPromptTokens     prompt tokens the cache saved: the prompt as the request would have been billed
 *                               (once for a request of n samples, once per sample where the backend splits n)
 * @param cachedCompletionTokens completion tokens of the cached samples, as their own requests reported them
 * @param cachedLatencyMicros    the latency of the request that produced the cached samples (the longest, when
 *                               several did); 0 without cached samples, -1 when a cache entry did not record it
 * @param submittedMicros        when the caller asked
 * @param startedMicros          when the call left our queue
 * @param endedMicros            when it returned or failed
 * @param cacheHit               every sample came from the cache
 * @param attempts               backend attempts made (0 for a full cache hit)
 * @param retries                attempts after the first
 * @param error                  the failure summary, or null
 * @param endpoint               with several model servers behind one client, the one that answered (comma-separated
 *                               when a call split into single-sample requests was answered by several); null with one
 *                               server (the backend id names it) and when none answered
 */
public record CallRecord(String callId, CallContext context, String backendId, String model, String prompt,
                         String settings, List<String> outputs, List<String> finishReasons, int promptTokens,
                         int completionTokens, int samples, int cachedSamples, int cachedPromptTokens,
                         int cachedCompletionTokens, long cachedLatencyMicros, long submittedMicros,
                         long startedMicros, long endedMicros, boolean cacheHit, int attempts, int retries,
                         String error, String endpoint) {

    /** A call of a client with one server (no endpoint). */
    public CallRecord(String callId, CallContext context, String backendId, String model, String prompt,
                      String settings, List<String> outputs, List<String> finishReasons, int promptTokens,
                      int completionTokens, int samples, int cachedSamples, int cachedPromptTokens,
                      int cachedCompletionTokens, long cachedLatencyMicros, long submittedMicros,
                      long startedMicros, long endedMicros, boolean cacheHit, int attempts, int retries,
                      String error) {
        this(callId, context, backendId, model, prompt, settings, outputs, finishReasons, promptTokens,
                completionTokens, samples, cachedSamples, cachedPromptTokens, cachedCompletionTokens,
                cachedLatencyMicros, submittedMicros, startedMicros, endedMicros, cacheHit, attempts, retries, error,
                null);
    }

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

    /** Tokens billed by this call (the cache's share not included). */
    public int totalTokens() {
        return promptTokens + completionTokens;
    }

    /** Tokens the cache saved. */
    public int cachedTokens() {
        return cachedPromptTokens + cachedCompletionTokens;
    }

    /** Prompt tokens the call used, billed or served from the cache. */
    public int usedPromptTokens() {
        return promptTokens + cachedPromptTokens;
    }

    /** Completion tokens the call used, billed or served from the cache. */
    public int usedCompletionTokens() {
        return completionTokens + cachedCompletionTokens;
    }

    /**
     * The model's time for this call: its latency when the model answered every sample, the latency the cached
     * samples' request had when the cache answered them, the longer of the two when both did (one request of n
     * samples takes about as long as its slowest). Empty when a cache entry did not record its latency.
     */
    public OptionalLong modelMicros() {
        if (cachedSamples == 0) {
            return OptionalLong.of(Math.max(0, latencyMicros()));
        }
        if (cachedLatencyMicros < 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(cachedSamples >= samples ? cachedLatencyMicros
                : Math.max(cachedLatencyMicros, Math.max(0, latencyMicros())));
    }

    public boolean failed() {
        return error != null;
    }
}
