package dev.veracity.rl.reward;

import java.util.Map;
import java.util.Objects;

/**
 * One thing to score.
 *
 * @param question the question the response answers ("" when unknown; MARCH's Proposer never sees it)
 * @param response the model's output, reasoning blocks included (every reward removes them before scoring)
 * @param label    the gold answers and optional fields
 * @param context  extra fields from the trainer (e.g. VeRL's {@code data_source}), passed through to rewards that
 *                 read them; none of the current rewards does
 */
public record RewardInput(String question, String response, Label label, Map<String, String> context) {

    public RewardInput {
        question = Objects.requireNonNullElse(question, "");
        response = Objects.requireNonNullElse(response, "");
        Objects.requireNonNull(label, "label");
        context = context == null ? Map.of() : Map.copyOf(context);
    }

    public static RewardInput of(String question, String response, Label label) {
        return new RewardInput(question, response, label, Map.of());
    }

    /** A stable id for the traces of the model calls that score it: the same question and response, the same id. */
    public String traceId() {
        return "r" + Integer.toHexString((question + '\u0000' + response).hashCode());
    }
}
