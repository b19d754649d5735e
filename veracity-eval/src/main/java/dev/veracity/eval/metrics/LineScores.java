package dev.veracity.eval.metrics;

import dev.veracity.eval.results.ResultLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A metric's item score for one line of a run's {@code results.jsonl}, as every reader of the file takes it (the
 * run's summary, {@code compare}'s intervals, the recipes' tables, the judge scenarios): a judged score the line
 * stored ({@link JudgedMetric#stored}) as it is, else the metric over what it reads ({@link Metric#reads()}): the
 * line's {@code prediction}, or its {@code raw} response (the prediction when the line has none).
 */
public final class LineScores {

    private LineScores() {
    }

    /** The metric's score of the line. */
    public static ItemScore of(Metric metric, ResultLine line) {
        if (metric instanceof JudgedMetric j) {
            Map<String, Object> stored = storedFields(line.metricsOrEmpty(), metric.name());
            if (!stored.isEmpty()) {
                var s = j.stored(stored);
                if (s.isPresent()) {
                    return s.get();
                }
            }
        }
        return metric.score(input(metric, line.predictionText(), line.raw()), line.goldOrEmpty(),
                line.wrong() == null ? List.of() : line.wrong());
    }

    /**
     * What the metric reads of an answer: its prediction, or for a metric of whole responses the raw output (the
     * prediction when there is none: a method whose output is its answer).
     */
    public static String input(Metric metric, String prediction, String raw) {
        return metric.reads() == Metric.Reads.RESPONSE && raw != null && !raw.isEmpty() ? raw : prediction;
    }

    /** The {@code name.field} entries of a line's metrics object, without the prefix. */
    static Map<String, Object> storedFields(Map<String, Object> metrics, String name) {
        Map<String, Object> out = new LinkedHashMap<>();
        String prefix = name + ".";
        metrics.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }
}
