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
 */
public record LatencyModel(Duration timeToFirstToken, Duration perOutputToken) {

    /** Answers immediately. */
    public static final LatencyModel NONE = new LatencyModel(Duration.ZERO, Duration.ZERO);

    public LatencyModel {
        Objects.requireNonNull(timeToFirstToken, "timeToFirstToken");
        Objects.requireNonNull(perOutputToken, "perOutputToken");
        if (timeToFirstToken.isNegative() || perOutputToken.isNegative()) {
            throw new IllegalArgumentException("latency durations must not be negative");
        }
    }

    public static LatencyModel ofMillis(long timeToFirstTokenMs, long perOutputTokenMs) {
        return new LatencyModel(Duration.ofMillis(timeToFirstTokenMs), Duration.ofMillis(perOutputTokenMs));
    }

    /** The time a generation of {@code outputTokens} tokens takes once it holds a slot. */
    public Duration serviceTime(int outputTokens) {
        return timeToFirstToken.plus(perOutputToken.multipliedBy(outputTokens));
    }

    public boolean isZero() {
        return timeToFirstToken.isZero() && perOutputToken.isZero();
    }
}
