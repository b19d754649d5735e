package dev.veracity.rl.reward;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A reward's answer for one input.
 *
 * @param score   the reward, finite
 * @param details named facts behind the score in a fixed order (e.g. {@code outcome}, {@code claims}); values are
 *                {@link Number}, {@link String} or {@link Boolean}
 * @param status  {@link Status#OK}, or {@link Status#FALLBACK} when the reward could not be computed and
 *                {@code score} is the configured fallback
 * @param reason  why the fallback was used; null when OK
 */
public record RewardResult(double score, Map<String, Object> details, Status status, String reason) {

    /** Whether the score was computed or stands in for one that could not be. */
    public enum Status { OK, FALLBACK }

    public RewardResult {
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("a reward must be finite, was " + score);
        }
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
        Objects.requireNonNull(status, "status");
        if ((status == Status.FALLBACK) != (reason != null)) {
            throw new IllegalArgumentException("a fallback has a reason and only a fallback has one");
        }
    }

    public static RewardResult ok(double score, Map<String, Object> details) {
        return new RewardResult(score, details, Status.OK, null);
    }

    public static RewardResult ok(double score) {
        return ok(score, Map.of());
    }

    public static RewardResult fallback(double score, String reason) {
        return new RewardResult(score, Map.of(), Status.FALLBACK, Objects.requireNonNull(reason, "reason"));
    }

    public boolean isFallback() {
        return status == Status.FALLBACK;
    }
}
