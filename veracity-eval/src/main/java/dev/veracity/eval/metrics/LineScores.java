package dev.veracity.eval.metrics;

import com.fasterxml.jackson.databind.JsonNode;
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
    public static ItemScore of(Metric metric, JsonNode line) {
        if (metric instanceof JudgedMetric j) {
            Map<String, Object> stored = storedFields(line.path("metrics"), metric.name());
            if (!stored.isEmpty()) {
                var s = j.stored(stored);
                if (s.isPresent()) {
                    return s.get();
                }
            }
        }
        return metric.score(input(metric, line.path("prediction").asText(""),
                line.has("raw") ? line.get("raw").asText("") : null), strings(line.path("gold")), strings(line.path("wrong")));
    }

    /**
     * What the metric reads of an answer: its prediction, or for a metric of whole responses the raw output (the
     * prediction when there is none: a method whose output is its answer).
     */
    public static String input(Metric metric, String prediction, String raw) {
        return metric.reads() == Metric.Reads.RESPONSE && raw != null && !raw.isEmpty() ? raw : prediction;
    }

    /** The {@code name.field} entries of a line's metrics object, without the prefix, as plain values. */
    static Map<String, Object> storedFields(JsonNode metrics, String name) {
        Map<String, Object> out = new LinkedHashMap<>();
        String prefix = name + ".";
        metrics.properties().forEach(e -> {
            if (e.getKey().startsWith(prefix)) {
                JsonNode v = e.getValue();
                Object value = v.isBoolean() ? (Object) v.booleanValue() : v.isNumber() ? v.numberValue() : v.asText();
                out.put(e.getKey().substring(prefix.length()), value);
            }
        });
        return out;
    }

    private static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.asText()));
        return out;
    }
}
