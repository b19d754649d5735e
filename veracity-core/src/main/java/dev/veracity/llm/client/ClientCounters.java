package dev.veracity.llm.client;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Live counters of one {@link LlmClient}: what it has done so far. Thread-safe. */
public final class ClientCounters {

    /** The client's servers, each with its own limit; the limits below are their sums (one server: its own). */
    private final EndpointPool pool;

    ClientCounters(EndpointPool pool) {
        this.pool = pool;
    }

    private int sum(java.util.function.ToIntFunction<CallLimiter> f) {
        return pool.endpoints().stream().mapToInt(e -> f.applyAsInt(e.limiter)).sum();
    }

    final AtomicLong calls = new AtomicLong();
    final AtomicLong cacheHits = new AtomicLong();
    final AtomicLong cachedSamples = new AtomicLong();
    final AtomicLong attempts = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong emptyResponses = new AtomicLong();
    final AtomicLong cutShort = new AtomicLong();
    final AtomicLong uncachedIncomplete = new AtomicLong();
    final AtomicLong unparseableMarks = new AtomicLong();
    final AtomicLong unparseableSkipped = new AtomicLong();
    final AtomicLong promptTokens = new AtomicLong();
    final AtomicLong completionTokens = new AtomicLong();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger peakInFlight = new AtomicInteger();

    /** Logical calls made through the client. */
    public long calls() {
        return calls.get();
    }

    /** Calls answered entirely from the cache. */
    public long cacheHits() {
        return cacheHits.get();
    }

    /** Samples served from the cache (including partial hits). */
    public long cachedSamples() {
        return cachedSamples.get();
    }

    /** Backend attempts (HTTP requests for a server backend). */
    public long attempts() {
        return attempts.get();
    }

    public long retries() {
        return retries.get();
    }

    /** Calls that ended in an error. */
    public long failures() {
        return failures.get();
    }

    /** Attempts that returned an empty or whitespace-only text (each failed with EMPTY_RESPONSE and was retried). */
    public long emptyResponses() {
        return emptyResponses.get();
    }

    /** Attempts with a sample the server cut below the request's max_tokens (each failed with TRUNCATED and was retried). */
    public long cutShort() {
        return cutShort.get();
    }

    /** Samples returned to the caller but not cached because they did not finish (see {@link LlmClient}). */
    public long uncachedIncomplete() {
        return uncachedIncomplete.get();
    }

    /** Samples flagged with {@link LlmClient#markUnparseable}. */
    public long unparseableMarks() {
        return unparseableMarks.get();
    }

    /** Cached samples passed over because they were marked unparseable (asked of the model again). */
    public long unparseableSkipped() {
        return unparseableSkipped.get();
    }

    public long promptTokens() {
        return promptTokens.get();
    }

    public long completionTokens() {
        return completionTokens.get();
    }

    /** Attempts running now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The most attempts that ran at once; never above the highest the client's concurrency limit has been. */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    /** The concurrency limit now (fixed, or where {@code auto} stands), summed over the servers. */
    public int limit() {
        return sum(CallLimiter::limit);
    }

    /** The lowest the concurrency limit has been (each server's lowest, summed). */
    public int lowestLimit() {
        return sum(CallLimiter::lowestLimit);
    }

    /** The highest the concurrency limit has been (each server's highest, summed). */
    public int highestLimit() {
        return sum(CallLimiter::highestLimit);
    }

    /** Attempts the servers turned away for load (429, 503, a timeout); each cut an adaptive limit. */
    public long overloadDrops() {
        return pool.endpoints().stream().mapToLong(e -> e.limiter.drops()).sum();
    }

    void enter() {
        int now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
    }

    void exit() {
        inFlight.decrementAndGet();
    }

    @Override
    public String toString() {
        return "calls=" + calls() + " cacheHits=" + cacheHits() + " attempts=" + attempts() + " retries=" + retries()
                + " failures=" + failures() + " emptyResponses=" + emptyResponses()
                + " cutShort=" + cutShort() + " uncachedIncomplete=" + uncachedIncomplete() + " tokens=" + (promptTokens() + completionTokens())
                + " peakInFlight=" + peakInFlight() + " limit=" + (pool.single() ? pool.endpoints().getFirst().limiter
                : pool.stats());
    }
}
