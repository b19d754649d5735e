package dev.veracity.methods.madam;

import dev.veracity.method.MethodAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the aggregator concluded in one round (or, without an aggregator, the agents' answers joined).
 *
 * @param answers     the answer set read from "All Correct Answers: [...]", in order, without duplicates
 * @param explanation the text after "Explanation:" ("" when missing)
 * @param raw         the model's output as it came ("" when no aggregator ran)
 * @param parsed      whether the output had the "All Correct Answers" marker
 */
public record AggregatorOutput(List<String> answers, String explanation, String raw, boolean parsed) {

    public AggregatorOutput {
        answers = answers == null ? List.of() : List.copyOf(answers);
        explanation = Objects.requireNonNullElse(explanation, "");
        raw = Objects.requireNonNullElse(raw, "");
    }

    /**
     * The method's answer: the canonical prediction, the answer set, the raw output, and a parse failure (named by
     * {@code step}) when the output had no "All Correct Answers" marker.
     */
    public MethodAnswer answer(String step, List<String> failures) {
        List<String> all = new ArrayList<>(failures);
        if (!parsed) {
            String t = raw.strip().replace('\n', ' ');
            all.add(step + ": no 'All Correct Answers' in '" + (t.length() > 200 ? t.substring(0, 200) + "..." : t) + "'");
        }
        return new MethodAnswer(prediction(), answers, all).withRaw(raw);
    }

    /**
     * The canonical prediction line, {@code All Correct Answers: ["a", "b"]. Explanation: ...}: what metrics read,
     * so that they score exactly the set this method parsed (quotes and backslashes escaped).
     */
    public String prediction() {
        StringBuilder sb = new StringBuilder("All Correct Answers: [");
        for (int i = 0; i < answers.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append('"').append(answers.get(i).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
        sb.append("].");
        if (!explanation.isBlank()) {
            sb.append(" Explanation: ").append(explanation.strip().replace('\n', ' '));
        }
        return sb.toString();
    }
}
