package dev.veracity.eval.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The aggregate of a metric over a file or a list of items.
 *
 * @param metric the metric name
 * @param n      the number of counted items
 * @param mean   the mean item score over the counted items (0 when there are none)
 * @param extras the metric's extra aggregates, in a fixed order
 */
public record Aggregate(String metric, int n, double mean, Map<String, Number> extras) {

    public Aggregate {
        extras = Collections.unmodifiableMap(new LinkedHashMap<>(extras));
    }

    /** Plain mean of {@link ItemScore#score()} over the counted items. */
    public static Aggregate mean(String metric, List<ItemScore> items) {
        List<ItemScore> counted = items.stream().filter(ItemScore::counted).toList();
        return new Aggregate(metric, counted.size(), meanOf(counted, ItemScore::score), Map.of());
    }

    static double meanOf(List<ItemScore> items, java.util.function.ToDoubleFunction<ItemScore> f) {
        if (items.isEmpty()) return 0.0;
        double sum = 0;
        for (ItemScore i : items) sum += f.applyAsDouble(i);
        return sum / items.size();
    }
}
