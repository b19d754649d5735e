package dev.veracity.sim;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a generation holds one of the server's capacity slots: {@code timeToFirstToken +
 * perOutputToken × tokens}, where {@code tokens} is the largest completion-token count among the
 * request's choices (the choices of one request are generated as a batch, in parallel).
 *
 * <p>Time spent waiting for a slot comes on top, which is what makes a saturated server slow.
 *
 * <p>A streamed answer spreads the same time over its events: the first tokens {@code timeToFirstToken} after the
 * slot is taken, each next one {@code perOutputToken} later, the end one step after the last token.
 *
 * <p>{@code jitter} varies each generation's times by a factor drawn uniformly from {@code [1 - jitter, 1 + jitter]}
 * (the mean stays the same), as a real model's latency varies with load and batch. Without it, every call takes
 * exactly the same time, and concurrent clients that start together stay in lock-step: their calls all end at one
 * instant, so a load test measures the burst of work that lands on the CPU at once rather than a steady load.
 *
 * @param jitter a fraction in [0, 1); 0 (the default) for exact times
 */
public record LatencyModel(Duration timeToFirstToken, Duration perOutputToken, double jitter) {

    /** Answers immediately. */
    public static final LatencyModel NONE = new LatencyModel(Duration.ZERO, Duration.ZERO);

    public LatencyModel {
        Objects.requireNonNull(timeToFirstToken, "timeToFirstToken");
        Objects.requireNonNull(perOutputToken, "perOutputToken");
        if (timeToFirstToken.isNegative() || perOutputToken.isNegative()) {
            throw new IllegalArgumentException("latency durations must not be negative");
        }
        if (!(jitter >= 0 && jitter < 1)) {
            throw new IllegalArgumentException("latency jitter must be a fraction in [0, 1), got " + jitter);
        }
    }

    /** Exact times, no jitter. */
    public LatencyModel(Duration timeToFirstToken, Duration perOutputToken) {
        this(timeToFirstToken, perOutputToken, 0);
    }

    public static LatencyModel ofMillis(long timeToFirstTokenMs, long perOutputTokenMs) {
        return new LatencyModel(Duration.ofMillis(timeToFirstTokenMs), Duration.ofMillis(perOutputTokenMs));
    }

    /** The same times, each generation varied by up to {@code fraction} either way. */
    public LatencyModel withJitter(double fraction) {
        return new LatencyModel(timeToFirstToken, perOutputToken, fraction);
    }

    /**
     * The exact times of one generation: both scaled by {@code 1 + jitter * (2u - 1)}; {@code u} in [0, 1) is the
     * caller's seeded draw, so that a generation's events share one factor and a seeded run draws the same ones.
     */
    public LatencyModel forGeneration(double u) {
        if (jitter == 0) {
            return this;
        }
        double factor = 1 + jitter * (2 * u - 1);
        return new LatencyModel(scale(timeToFirstToken, factor), scale(perOutputToken, factor), 0);
    }

    private static Duration scale(Duration d, double factor) {
        return Duration.ofNanos(Math.round(d.toNanos() * factor));
    }

    /** The time a generation of {@code outputTokens} tokens takes once it holds a slot. */
    public Duration serviceTime(int outputTokens) {
        return timeToFirstToken.plus(perOutputToken.multipliedBy(outputTokens));
    }

    public boolean isZero() {
        return timeToFirstToken.isZero() && perOutputToken.isZero();
    }
}
