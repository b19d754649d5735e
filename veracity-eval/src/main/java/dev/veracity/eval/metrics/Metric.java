package dev.veracity.eval.metrics;

import java.util.List;

/**
 * A benchmark metric: a pure, total function of one prediction, its gold answers and (where the metric uses them)
 * its wrong answers. Null strings and null lists count as empty; no input throws.
 */
public interface Metric {

    /** The registry name, as accepted by {@link Metrics#byName(String)}. */
    String name();

    /** Scores one item. {@code wrong} is ignored by metrics that do not use wrong answers. */
    ItemScore score(String prediction, List<String> gold, List<String> wrong);

    default ItemScore score(String prediction, List<String> gold) {
        return score(prediction, gold, List.of());
    }

    /** Mean score over the counted items; metrics with extra aggregates override this. */
    default Aggregate aggregate(List<ItemScore> items) {
        return Aggregate.mean(name(), items);
    }
}
