package dev.veracity.rl.server;

import dev.veracity.http.ServerMetrics;
import dev.veracity.rl.reward.RewardResult;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;

/**
 * The reward server's own metrics, beside the HTTP ones:
 * <ul>
 *   <li>{@code veracity_rewards_total{reward, door, status}}: inputs scored, by door ({@code openrlhf}, {@code slime},
 *       {@code native}) and status ({@code ok}, {@code fallback});</li>
 *   <li>{@code veracity_reward_value{reward}}: the distribution of the rewards given (fallbacks included), in buckets
 *       of 0.25 from -1 to 1, where every reward we serve lies.</li>
 * </ul>
 */
final class RewardMetrics {

    private final String reward;
    private final Counter scored;
    private final Histogram value;

    RewardMetrics(ServerMetrics metrics, String reward) {
        this.reward = reward;
        this.scored = Counter.builder().name("veracity_rewards").help("Inputs scored, by door and status (ok or fallback)")
                .labelNames("reward", "door", "status").register(metrics.registry());
        this.value = Histogram.builder().name("veracity_reward_value").help("Rewards given, fallbacks included")
                .labelNames("reward").classicOnly().classicLinearUpperBounds(-1.0, 0.25, 9).register(metrics.registry());
    }

    void record(String door, RewardResult r) {
        scored.labelValues(reward, door, r.isFallback() ? "fallback" : "ok").inc();
        value.labelValues(reward).observe(r.score());
    }
}
