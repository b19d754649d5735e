package dev.veracity.trace;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a set of calls cost: counts, tokens, wall time and critical-path time.
 *
 * <p>The critical path is the longest chain of dependent calls. A call depends on every call of the same
 * question that had returned before it was submitted (happens-before): a method can only use an output it
 * has received, so this chain is exact for calls that wait on each other and never shorter than the true one.
 * Its time is the sum of the chain's call latencies (queueing in our client excluded): the latency a question
 * would have with unlimited concurrency. A sequential implementation of independent calls shows a critical
 * path equal to its wall time, which is the point: it measures what the code does, not what it could do.
 *
 * <p>Calls are requests: one call asks for n samples, so {@code samples} counts the completions (Reasoning Court's
 * Table 4 counts CoT-SC's 21 samples as 21 LLM calls). What the response cache served is counted as used: the
 * {@code cached*} figures are the tokens and samples the cache saved, and {@code modelTime} sums every call's model
 * latency, a cached call at the latency its request had when it was made; wall time and the critical path are this
 * run's own, in which a cached call takes the time of a lookup.
 *
 * @param calls                  calls (requests) made
 * @param failedCalls            calls that ended in an error
 * @param cacheHits              calls answered entirely from the cache
 * @param retries                retries over all calls
 * @param promptTokens           prompt tokens billed
 * @param completionTokens       completion tokens billed
 * @param wall                   first submission to last return
 * @param criticalPath           for one question, its critical path; for a run, the longest of its questions' (the
 *                               run's latency with unlimited concurrency), so never more than its wall time
 * @param samples                samples the calls asked for
 * @param cachedSamples          of those, the ones the cache served
 * @param cachedPromptTokens     prompt tokens the cache saved
 * @param cachedCompletionTokens completion tokens the cache saved
 * @param modelTime              the sum of the calls' model latencies ({@link CallRecord#modelMicros()}); empty
 *                               when a cache entry did not record its latency
 */
public record CallStats(int calls, int failedCalls, int cacheHits, int retries, long promptTokens,
                        long completionTokens, Duration wall, Duration criticalPath, int samples, int cachedSamples,
                        long cachedPromptTokens, long cachedCompletionTokens, Optional<Duration> modelTime) {

    public static final CallStats EMPTY = new CallStats(0, 0, 0, 0, 0, 0, Duration.ZERO, Duration.ZERO, 0, 0, 0, 0,
            Optional.of(Duration.ZERO));

    /** Tokens billed. */
    public long totalTokens() {
        return promptTokens + completionTokens;
    }

    /** Prompt tokens used, billed or served from the cache. */
    public long usedPromptTokens() {
        return promptTokens + cachedPromptTokens;
    }

    /** Completion tokens used, billed or served from the cache. */
    public long usedCompletionTokens() {
        return completionTokens + cachedCompletionTokens;
    }

    /** Tokens used, billed or served from the cache. */
    public long usedTokens() {
        return usedPromptTokens() + usedCompletionTokens();
    }

    /** Statistics of the calls of one question. */
    public static CallStats ofQuestion(Collection<CallRecord> calls) {
        return of(calls, criticalPathMicros(calls));
    }

    /**
     * Statistics of a run: counts summed, wall time over the run, and the longest of its questions' critical paths.
     * Questions are independent, so with unlimited concurrency a run takes as long as its slowest question's chain: a
     * bound its wall time cannot beat (a sum over questions answered at once exceeded the wall time it ran in).
     */
    public static CallStats ofRun(Collection<CallRecord> calls) {
        long cp = byQuestion(calls).values().stream().mapToLong(CallStats::criticalPathMicros).max().orElse(0);
        return of(calls, cp);
    }

    /** Per-question statistics, keyed by question id in order of first submission. */
    public static Map<String, CallStats> byQuestion(Collection<CallRecord> calls) {
        Map<String, List<CallRecord>> groups = new LinkedHashMap<>();
        calls.stream().sorted(Comparator.comparingLong(CallRecord::submittedMicros))
                .forEach(r -> groups.computeIfAbsent(r.context().questionId(), k -> new ArrayList<>()).add(r));
        Map<String, CallStats> out = new LinkedHashMap<>();
        groups.forEach((q, rs) -> out.put(q, ofQuestion(rs)));
        return out;
    }

    private long criticalPathMicros() {
        return criticalPath.toNanos() / 1000;
    }

    private static CallStats of(Collection<CallRecord> calls, long criticalPathMicros) {
        if (calls.isEmpty()) {
            return EMPTY;
        }
        int failed = 0;
        int hits = 0;
        int retries = 0;
        long prompt = 0;
        long completion = 0;
        int samples = 0;
        int cachedSamples = 0;
        long cachedPrompt = 0;
        long cachedCompletion = 0;
        long model = 0;
        boolean modelKnown = true;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (CallRecord r : calls) {
            failed += r.failed() ? 1 : 0;
            hits += r.cacheHit() ? 1 : 0;
            retries += r.retries();
            prompt += r.promptTokens();
            completion += r.completionTokens();
            samples += r.samples();
            cachedSamples += r.cachedSamples();
            cachedPrompt += r.cachedPromptTokens();
            cachedCompletion += r.cachedCompletionTokens();
            OptionalLong m = r.modelMicros();
            modelKnown &= m.isPresent();
            model += m.orElse(0);
            first = Math.min(first, r.submittedMicros());
            last = Math.max(last, r.endedMicros());
        }
        return new CallStats(calls.size(), failed, hits, retries, prompt, completion,
                Duration.ofNanos((last - first) * 1000), Duration.ofNanos(criticalPathMicros * 1000), samples,
                cachedSamples, cachedPrompt, cachedCompletion,
                modelKnown ? Optional.of(Duration.ofNanos(model * 1000)) : Optional.empty());
    }

    /**
     * The most calls of one question that had to wait for each other, over every question of {@code calls}: a call
     * depends on every call of its question that had ended when it was asked (the happens-before rule of the critical
     * path, counting calls instead of summing latencies). Times a fixed latency per call, it is the shortest time any
     * execution of these questions can take, whatever its concurrency. Quadratic per question.
     */
    public static int longestChain(Collection<CallRecord> calls) {
        Map<String, List<CallRecord>> byQuestion = new LinkedHashMap<>();
        calls.forEach(r -> byQuestion.computeIfAbsent(r.context().questionId(), k -> new ArrayList<>()).add(r));
        int best = 0;
        for (List<CallRecord> question : byQuestion.values()) {
            List<CallRecord> sorted = question.stream().sorted(Comparator.comparingLong(CallRecord::submittedMicros)).toList();
            int[] depth = new int[sorted.size()];
            for (int i = 0; i < sorted.size(); i++) {
                int d = 0;
                for (int j = 0; j < i; j++) {
                    if (sorted.get(j).endedMicros() <= sorted.get(i).submittedMicros()) {
                        d = Math.max(d, depth[j]);
                    }
                }
                depth[i] = d + 1;
                best = Math.max(best, depth[i]);
            }
        }
        return best;
    }

    /** Longest happens-before chain, summing latencies. Quadratic: questions make tens of calls, not thousands. */
    static long criticalPathMicros(Collection<CallRecord> calls) {
        List<CallRecord> sorted = calls.stream().sorted(Comparator.comparingLong(CallRecord::submittedMicros)).toList();
        long[] chain = new long[sorted.size()];
        long best = 0;
        for (int i = 0; i < sorted.size(); i++) {
            CallRecord c = sorted.get(i);
            long before = 0;
            for (int j = 0; j < i; j++) {
                if (sorted.get(j).endedMicros() <= c.submittedMicros()) {
                    before = Math.max(before, chain[j]);
                }
            }
            chain[i] = before + Math.max(0, c.latencyMicros());
            best = Math.max(best, chain[i]);
        }
        return best;
    }
}
