package dev.veracity.rl.reward;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.JsonlRows;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON shape of the reward doors: an input row {@code {"question", "response", "label"}} and the same row with
 * {@code "reward"} and {@code "details"} added. {@code details} holds the reward's details and, for a fallback,
 * {@code "fallback": true} and {@code "fallback_reason"}.
 */
public final class RewardRows {

    private RewardRows() {
    }

    /**
     * The input of a row.
     *
     * @throws IllegalArgumentException saying which field is missing or wrong (the label's own reason included)
     */
    public static RewardInput input(ObjectNode row) {
        String question = text(row, "question");
        String response = text(row, "response");
        JsonNode label = row.get("label");
        if (label == null) {
            throw new IllegalArgumentException("missing \"label\"");
        }
        return switch (Label.parse(label)) {
            case LabelParse.Ok ok -> RewardInput.of(question, response, ok.label());
            case LabelParse.Bad bad -> throw new IllegalArgumentException("bad \"label\": " + bad.reason());
        };
    }

    private static String text(ObjectNode row, String field) {
        JsonNode n = row.get(field);
        if (n == null) {
            throw new IllegalArgumentException("missing \"" + field + "\"");
        }
        if (!n.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a string, was " + n.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        return n.textValue();
    }

    /** The details as JSON, with the fallback flag and reason when the score is a fallback. */
    public static ObjectNode details(RewardResult r) {
        ObjectNode o = JsonlRows.JSON.createObjectNode();
        for (Map.Entry<String, Object> e : r.details().entrySet()) {
            put(o, e.getKey(), e.getValue());
        }
        if (r.isFallback()) {
            o.put("fallback", true);
            o.put("fallback_reason", r.reason());
        }
        return o;
    }

    /** A copy of the row with {@code "reward"} and {@code "details"} set (replacing fields of those names). */
    public static ObjectNode scored(ObjectNode row, RewardResult r) {
        ObjectNode out = row.deepCopy();
        out.put("reward", r.score());
        out.set("details", details(r));
        return out;
    }

    private static void put(ObjectNode o, String key, Object v) {
        switch (v) {
            case Integer i -> o.put(key, i);
            case Long l -> o.put(key, l);
            case Number n -> o.put(key, n.doubleValue());
            case Boolean b -> o.put(key, b);
            case null -> o.putNull(key);
            default -> o.put(key, v.toString());
        }
    }
}
