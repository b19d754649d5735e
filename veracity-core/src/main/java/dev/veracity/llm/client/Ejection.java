package dev.veracity.llm.client;

import java.time.Duration;
import java.util.Objects;

/**
 * When a client of several model servers takes one out, and when it tries it again: after {@code failuresInARow}
 * attempts in a row failed for the server's own reasons (connection refused or reset, a 5xx, no answer in time), the
 * server gets no attempts for {@code probeAfter}; then one real attempt is let through (the probe), and its answer
 * brings the server back, its failure takes it out again. A Failsafe circuit breaker per server
 * ({@code Endpoint}).
 *
 * @param failuresInARow failures in a row that take a server out
 * @param probeAfter     how long a server stays out before the probe
 */
public record Ejection(int failuresInARow, Duration probeAfter) {

    /**
     * Three failures in a row; probed after 5 s, within the 7.5 s of back-off that {@link RetrySettings#DEFAULT} gives
     * a call over its five attempts, so a call that found every server out is still waiting when the first comes back.
     */
    public static final Ejection DEFAULT = new Ejection(3, Duration.ofSeconds(5));

    public Ejection {
        Objects.requireNonNull(probeAfter, "probeAfter");
        if (failuresInARow < 1 || probeAfter.isNegative()) {
            throw new IllegalArgumentException("ejection needs failuresInARow >= 1 and probeAfter >= 0, got "
                    + failuresInARow + " and " + probeAfter);
        }
    }
}
