package dev.veracity.eval.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The score of one item.
 *
 * @param score   the item's number (1/0 for accuracies, the F1 for F1s, +1/0/-1 for truthfulness)
 * @param fields  extra per-item fields in a fixed order (e.g. precision, recall, f1, outcome); values are
 *                {@link Number}, {@link String} or {@link Boolean}
 * @param counted false when the metric excludes the item from its aggregates (truthfulness without a box,
 *                in the variant that excludes those)
 */
public record ItemScore(double score, Map<String, Object> fields, boolean counted) {

    public ItemScore {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    public static ItemScore of(double score) {
        return new ItemScore(score, Map.of(), true);
    }
}
