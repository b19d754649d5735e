package dev.veracity.rl.reward;

import dev.veracity.eval.metrics.ItemScore;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Metrics;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An official metric as a reward: the metric's item score is the reward and its per-item fields are the details.
 * The metric comes from {@link Metrics#byName}, which scores the response without its reasoning blocks; the
 * metric code is not copied here, so a reward always equals what {@code veracity score} and {@code eval} report.
 */
final class MetricReward implements Reward {

    private final String name;
    private final Metric metric;
    private final Map<String, Double> numericDetails;

    MetricReward(String name, String metricName) {
        this.name = name;
        this.metric = Metrics.byName(metricName);
        // A metric gives the same fields for every item (RewardsTableTest checks every registered one over the
        // table): its fields for an empty prediction name them all.
        Map<String, Double> numeric = new LinkedHashMap<>();
        metric.score("", List.of(), List.of()).fields().forEach((k, v) -> {
            if (v instanceof Number || v instanceof Boolean) {
                numeric.put(k, 0.0);
            }
        });
        numeric.put("counted", 1.0); // present, as false, only for an item the metric leaves out of its aggregates
        this.numericDetails = Collections.unmodifiableMap(numeric);
    }

    @Override
    public String name() {
        return name;
    }

    /** The metric's numeric fields (neutral 0) and {@code counted} (neutral 1: an item counts unless it says not). */
    @Override
    public Map<String, Double> numericDetails() {
        return numericDetails;
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
