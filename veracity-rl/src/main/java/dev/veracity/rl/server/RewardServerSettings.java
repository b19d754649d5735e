package dev.veracity.rl.server;

import dev.veracity.http.ServerLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * How the reward server listens, answers and refuses.
 *
 * @param host             the address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface)
 * @param port             the port (0 picks a free one)
 * @param deadline         every request is answered within this time: inputs not scored by then get the fallback
 *                         score, flagged, and their work is cancelled. Below the trainers' own timeouts (slime
 *                         120 s, OpenRLHF 180 s, VeRL 300 s), or they give up first and retry
 * @param fallbackScore    the score of an input whose reward could not be computed in time (give the reward's own
 *                         {@code RewardSettings.fallbackScore} the same value, for model failures)
 * @param rewardsAtOnce    most inputs of model-calling rewards scored at once across all requests (their model calls
 *                         are further bounded by the model client's concurrency limit)
 * @param maxResponseChars the longest response accepted; a longer one is a 400 naming the item
 * @param limits           the HTTP limits (body, batch, concurrent requests, stop grace); the HTTP deadline is set
 *                         5 s past {@code deadline}, as a backstop
 */
public record RewardServerSettings(String host, int port, Duration deadline, double fallbackScore, int rewardsAtOnce,
                                   int maxResponseChars, ServerLimits limits) {

    public RewardServerSettings {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("a port is from 0 to 65535, was " + port);
        }
        Objects.requireNonNull(deadline, "deadline");
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("the deadline must be positive, was " + deadline);
        }
        if (!Double.isFinite(fallbackScore)) {
            throw new IllegalArgumentException("the fallback score must be a finite number, was " + fallbackScore);
        }
        if (rewardsAtOnce < 1) {
            throw new IllegalArgumentException("rewards at once must be at least 1, was " + rewardsAtOnce);
        }
        if (maxResponseChars < 1) {
            throw new IllegalArgumentException("the response limit must be at least 1 character, was " + maxResponseChars);
        }
        Objects.requireNonNull(limits, "limits");
    }

    /** 127.0.0.1, a free port, 100 s deadline, fallback 0.0, 64 rewards at once, 1,000,000-character responses. */
    public static RewardServerSettings defaults() {
        return new RewardServerSettings("127.0.0.1", 0, Duration.ofSeconds(100), 0.0, 64, 1_000_000,
                ServerLimits.defaults());
    }

    public RewardServerSettings withHost(String h) {
        return new RewardServerSettings(h, port, deadline, fallbackScore, rewardsAtOnce, maxResponseChars, limits);
    }

    public RewardServerSettings withPort(int p) {
        return new RewardServerSettings(host, p, deadline, fallbackScore, rewardsAtOnce, maxResponseChars, limits);
    }

    public RewardServerSettings withDeadline(Duration d) {
        return new RewardServerSettings(host, port, d, fallbackScore, rewardsAtOnce, maxResponseChars, limits);
    }

    public RewardServerSettings withFallbackScore(double s) {
        return new RewardServerSettings(host, port, deadline, s, rewardsAtOnce, maxResponseChars, limits);
    }

    public RewardServerSettings withRewardsAtOnce(int n) {
        return new RewardServerSettings(host, port, deadline, fallbackScore, n, maxResponseChars, limits);
    }

    public RewardServerSettings withMaxResponseChars(int n) {
        return new RewardServerSettings(host, port, deadline, fallbackScore, rewardsAtOnce, n, limits);
    }

    public RewardServerSettings withLimits(ServerLimits l) {
        return new RewardServerSettings(host, port, deadline, fallbackScore, rewardsAtOnce, maxResponseChars, l);
    }
}
