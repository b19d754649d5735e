package dev.veracity.eval.metrics;

import java.util.List;

/**
 * A benchmark metric: a pure, total function of one prediction, its gold answers and (where the metric uses them)
 * its wrong answers. Null strings and null lists count as empty; no input throws.
 */
public interface Metric {

    /** The registry name, as accepted by {@link Metrics#byName(String)}. */
    String name();

    /** What of a method's answer a metric reads. */
    enum Reads {
        /** The method's prediction, its extracted answer (every metric but the ones below). */
        PREDICTION,
        /**
         * The whole response the prediction was read from (a result line's {@code raw}, the prediction when it has
         * none): {@code truthfulness} reads TruthRL's box itself, as the authors' evaluation does.
         */
        RESPONSE
    }

    /** What this metric reads; {@link Reads#PREDICTION} unless it says otherwise. */
    default Reads reads() {
        return Reads.PREDICTION;
    }

    /** Scores one item. {@code wrong} is ignored by metrics that do not use wrong answers. */
    ItemScore score(String prediction, List<String> gold, List<String> wrong);

    default ItemScore score(String prediction, List<String> gold) {
        return score(prediction, gold, List.of());
    }

    /** The aggregate over {@code items}: what {@link #tally()} folds them into. */
    default Aggregate aggregate(List<ItemScore> items) {
        Tally t = tally();
        items.forEach(t::add);
        return t.result();
    }

    /**
     * A fold of item scores into this metric's aggregate, one item at a time in constant memory (a run's summary
     * over a results file of any length). The default: the mean score over the counted items; metrics with extra
     * aggregates override this.
     */
    default Tally tally() {
        return new Aggregate.MeanTally(name());
    }

    /** Item scores folded one at a time into an {@link Aggregate}. Not thread-safe. */
    interface Tally {
        void add(ItemScore item);

        Aggregate result();
    }
}
