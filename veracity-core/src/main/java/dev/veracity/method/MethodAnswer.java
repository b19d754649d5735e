package dev.veracity.method;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A method's answer to one question.
 *
 * @param prediction    the final text that metrics score (for multi-answer tasks the "All Correct Answers: [...]"
 *                      line, for others the short answer)
 * @param answers       the answers the method parsed out of it, when it parses them (may be empty)
 * @param parseFailures model outputs the method could not parse, each described; recorded, never fatal
 * @param signals       numbers the method reports per question (MARCH: whether verification passed, its
 *                      reward); runs keep them per question and average them in the summary
 * @param raw           the model output the prediction was read from, as the model wrote it ("" when the
 *                      prediction is the output itself); results keep it beside the prediction
 * @param details       what the method reports beyond these fields, each under a key it defines
 *                      ({@link DetailKey}; Reasoning Court's candidate answers); runs write each into the result line
 *                      under the key's name, in its {@code details} object ({@link Details#writeTo})
 */
public record MethodAnswer(String prediction, List<String> answers, List<String> parseFailures,
                           Map<String, Double> signals, String raw, Details details) {

    public MethodAnswer {
        prediction = Objects.requireNonNullElse(prediction, "");
        raw = Objects.requireNonNullElse(raw, "");
        answers = answers == null ? List.of() : List.copyOf(answers);
        parseFailures = parseFailures == null ? List.of() : List.copyOf(parseFailures);
        signals = signals == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(signals));
        details = details == null ? Details.NONE : details;
    }

    /** An answer without details. */
    public MethodAnswer(String prediction, List<String> answers, List<String> parseFailures,
                        Map<String, Double> signals, String raw) {
        this(prediction, answers, parseFailures, signals, raw, Details.NONE);
    }

    /** An answer with signals, without a separate raw output. */
    public MethodAnswer(String prediction, List<String> answers, List<String> parseFailures,
                        Map<String, Double> signals) {
        this(prediction, answers, parseFailures, signals, "");
    }

    /** An answer without signals. */
    public MethodAnswer(String prediction, List<String> answers, List<String> parseFailures) {
        this(prediction, answers, parseFailures, Map.of(), "");
    }

    /** This answer, recording the raw model output it was read from. */
    public MethodAnswer withRaw(String output) {
        return new MethodAnswer(prediction, answers, parseFailures, signals, output, details);
    }

    /** This answer with a detail (replacing one of the same key). */
    public <T> MethodAnswer withDetail(DetailKey<T> key, T value) {
        return new MethodAnswer(prediction, answers, parseFailures, signals, raw, details.with(key, value));
    }

    /** The detail's value, or empty when the method attached none. */
    public <T> java.util.Optional<T> detail(DetailKey<T> key) {
        return details.get(key);
    }

    /**
     * Whether the answer is an abstention: by the method's own signal ({@code abstained}, or
     * {@code abstained_by_policy} of a verifying composition), or as core's classifier reads the prediction
     * ({@link dev.veracity.qa.Abstention}). Every front end that reports it ({@code serve}, LangChain4j) asks here.
     */
    public boolean abstained() {
        return signals.getOrDefault("abstained", 0.0) > 0 || signals.getOrDefault("abstained_by_policy", 0.0) > 0
                || dev.veracity.qa.Abstention.ofAnswer(prediction) == dev.veracity.qa.Abstention.Kind.ABSTAIN;
    }

    public static MethodAnswer of(String prediction) {
        return new MethodAnswer(prediction, List.of(), List.of());
    }
}
