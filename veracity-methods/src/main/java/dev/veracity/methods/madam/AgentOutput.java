package dev.veracity.methods.madam;

import java.util.Objects;

/**
 * What one agent said in one round.
 *
 * @param answer      the text after "Answer:" up to "Explanation" ("" when the output had no answer)
 * @param explanation the text after "Explanation:" ("" when missing)
 * @param raw         the model's output as it came
 * @param parsed      whether the output had an "Answer:" marker
 */
public record AgentOutput(String answer, String explanation, String raw, boolean parsed) {

    public AgentOutput {
        answer = Objects.requireNonNullElse(answer, "");
        explanation = Objects.requireNonNullElse(explanation, "");
        raw = Objects.requireNonNullElse(raw, "");
    }

    /** How other agents and the aggregator see this response: the output as the model wrote it, trimmed. */
    public String shown() {
        return raw.strip();
    }
}
