package dev.veracity.rl.reward;

import dev.veracity.eval.metrics.ItemScore;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Metrics;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An official metric as a reward: the metric's item score is the reward and its per-item fields are the details.
 * The metric comes from {@link Metrics#byName}, which scores the response without its reasoning blocks; the
 * metric code is not copied here, so a reward always equals what {@code veracity score} and {@code eval} report.
 */
final class MetricReward implements Reward {

    private final String name;
    private final Metric metric;

    MetricReward(String name, String metricName) {
        this.name = name;
        this.metric = Metrics.byName(metricName);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public RewardResult score(RewardInput in) {
        ItemScore s = metric.score(in.response(), in.label().answers(), in.label().wrong());
        Map<String, Object> details = new LinkedHashMap<>(s.fields());
        if (!s.counted()) {
            details.put("counted", false);
        }
        return RewardResult.ok(s.score(), details);
    }
}
