package dev.veracity.llm.client;

import dev.failsafe.RetryPolicy;
import dev.veracity.llm.LlmException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a failed attempt is retried: exponential back-off with jitter, at least as long as the server's
 * Retry-After (capped by {@code maxRetryAfter}), for {@link dev.veracity.llm.ErrorKind#retryable() retryable}
 * errors only.
 *
 * @param maxAttempts    attempts in all, first included (1 = no retry)
 * @param initialBackoff wait before the first retry
 * @param maxBackoff     cap of the exponential wait
 * @param multiplier     growth of the wait per retry
 * @param jitter         random spread of each wait, as a fraction in [0, 1): 0.2 gives +-20%
 * @param maxRetryAfter  the longest Retry-After we honour; a longer one is cut to this
 */
public record RetrySettings(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double multiplier,
                            double jitter, Duration maxRetryAfter) {

    /** 5 attempts, 0.5 s doubling to 30 s, +-20% jitter, Retry-After honoured up to 2 minutes. */
    public static final RetrySettings DEFAULT = new RetrySettings(5, Duration.ofMillis(500), Duration.ofSeconds(30),
            2.0, 0.2, Duration.ofMinutes(2));

    /** One attempt, no retry. */
    public static final RetrySettings NONE = new RetrySettings(1, Duration.ZERO, Duration.ZERO, 1.0, 0.0, Duration.ZERO);

    public RetrySettings {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
        }
        if (multiplier < 1) {
            throw new IllegalArgumentException("multiplier must be >= 1, was " + multiplier);
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("jitter must be in [0, 1), was " + jitter);
        }
    }

    public RetrySettings withMaxAttempts(int attempts) {
        return new RetrySettings(attempts, initialBackoff, maxBackoff, multiplier, jitter, maxRetryAfter);
    }

    public RetrySettings withBackoff(Duration initial, Duration max) {
        return new RetrySettings(maxAttempts, initial, max, multiplier, jitter, maxRetryAfter);
    }

    /**
     * The wait before retry number {@code retry} (1 for the first retry).
     *
     * @param retryAfter what the server asked for, or null
     * @param random     a uniform draw in [0, 1) for the jitter
     */
    public Duration delayBefore(int retry, Duration retryAfter, double random) {
        double base = initialBackoff.toNanos() * Math.pow(multiplier, Math.max(0, retry - 1));
        double capped = Math.min(base, maxBackoff.toNanos());
        double jittered = capped * (1 + jitter * (2 * random - 1));
        long nanos = (long) Math.max(0, jittered);
        if (retryAfter != null && !retryAfter.isNegative()) {
            // The server knows when it will have room: never retry sooner than it said.
            nanos = Math.max(nanos, Math.min(retryAfter.toNanos(), maxRetryAfter.toNanos()));
        }
        return Duration.ofNanos(nanos);
    }

    /**
     * These settings as a Failsafe policy: retries {@link LlmException}s that are {@link LlmException#retryable()
     * retryable}, waiting {@link #delayBefore} with the server's Retry-After and a fresh jitter draw. The one policy of
     * {@link LlmClient} and of the clients that retry on their own (the embedding client).
     */
    public <T> RetryPolicy<T> policy() {
        return RetryPolicy.<T>builder()
                .handleIf((result, failure) -> failure instanceof LlmException e && e.retryable())
                .withMaxAttempts(maxAttempts)
                .withDelayFnOn(ctx -> delayBefore(ctx.getAttemptCount(),
                        ((LlmException) ctx.getLastException()).retryAfter().orElse(null),
                        ThreadLocalRandom.current().nextDouble()), LlmException.class)
                .build();
    }
}
