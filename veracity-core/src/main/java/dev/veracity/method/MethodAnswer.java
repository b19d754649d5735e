package dev.veracity.method;

import java.util.List;
import java.util.Objects;

/**
 * A method's answer to one question.
 *
 * @param prediction    the final text that metrics score (for multi-answer tasks the "All Correct Answers: [...]"
 *                      line, for others the short answer)
 * @param answers       the answers the method parsed out of it, when it parses them (may be empty)
 * @param parseFailures model outputs the method could not parse, each described; recorded, never fatal
 */
public record MethodAnswer(String prediction, List<String> answers, List<String> parseFailures) {

    public MethodAnswer {
        prediction = Objects.requireNonNullElse(prediction, "");
        answers = answers == null ? List.of() : List.copyOf(answers);
        parseFailures = parseFailures == null ? List.of() : List.copyOf(parseFailures);
    }

    public static MethodAnswer of(String prediction) {
        return new MethodAnswer(prediction, List.of(), List.of());
    }
}
