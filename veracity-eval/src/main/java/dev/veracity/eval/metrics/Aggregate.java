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
        MeanTally t = new MeanTally(metric);
        items.forEach(t::add);
        return t.result();
    }

    /**
     * The mean score over the counted items, plus means of further per-item figures over the counted items
     * ({@link #mean}) and counts over all items ({@link #count}), as extras in the order they were declared.
     */
    public static class MeanTally implements Metric.Tally {
        private final String metric;
        private final Map<String, java.util.function.ToDoubleFunction<ItemScore>> means = new LinkedHashMap<>();
        private final Map<String, java.util.function.Predicate<ItemScore>> counts = new LinkedHashMap<>();
        private final Map<String, double[]> sums = new LinkedHashMap<>();
        private int items;
        private int counted;
        private double scoreSum;

        public MeanTally(String metric) {
            this.metric = metric;
        }

        /** Adds an extra: the mean of {@code f} over the counted items (0 when there are none). */
        public MeanTally mean(String extra, java.util.function.ToDoubleFunction<ItemScore> f) {
            means.put(extra, f);
            sums.put(extra, new double[1]);
            return this;
        }

        /** Adds an extra: how many items (counted or not) {@code p} holds for, as a long. */
        public MeanTally count(String extra, java.util.function.Predicate<ItemScore> p) {
            counts.put(extra, p);
            sums.put(extra, new double[1]);
            return this;
        }

        @Override
        public void add(ItemScore item) {
            items++;
            counts.forEach((k, p) -> sums.get(k)[0] += p.test(item) ? 1 : 0);
            if (!item.counted()) {
                return;
            }
            counted++;
            scoreSum += item.score();
            means.forEach((k, f) -> sums.get(k)[0] += f.applyAsDouble(item));
        }

        /** Items added, counted or not. */
        protected int items() {
            return items;
        }

        @Override
        public Aggregate result() {
            Map<String, Number> extras = new LinkedHashMap<>();
            sums.forEach((k, s) -> {
                if (means.containsKey(k)) {
                    extras.put(k, counted == 0 ? 0.0 : s[0] / counted);
                } else {
                    extras.put(k, (long) s[0]); // a count stays an integer
                }
            });
            return new Aggregate(metric, counted, counted == 0 ? 0.0 : scoreSum / counted, extras);
        }
    }
}
