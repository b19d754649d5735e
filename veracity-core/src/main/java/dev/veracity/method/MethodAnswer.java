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
 * @param candidates    the answers of the agents a method chose among (Reasoning Court's agents before its
 *                      judge), in agent order; empty for methods that do not choose. Reports split questions by
 *                      them (Reasoning Court's Table 3)
 */
public record MethodAnswer(String prediction, List<String> answers, List<String> parseFailures,
                           Map<String, Double> signals, String raw, List<Candidate> candidates) {

    /**
     * One agent's answer among several.
     *
     * @param agent  the agent's role in the traces ({@code agent-1}, ...)
     * @param answer its answer ("" when it gave none)
     * @param steps  the steps it took (model turns; 0 when the agent does not step)
     * @param forced whether it was stopped at its step limit instead of finishing by itself
     * @param note   what else a reader of the run should know ("" when nothing), e.g. a loop on one action
     */
    public record Candidate(String agent, String answer, int steps, boolean forced, String note) {

        public Candidate {
            agent = Objects.requireNonNullElse(agent, "");
            answer = Objects.requireNonNullElse(answer, "");
            note = Objects.requireNonNullElse(note, "");
        }
    }

    public MethodAnswer {
        prediction = Objects.requireNonNullElse(prediction, "");
        raw = Objects.requireNonNullElse(raw, "");
        answers = answers == null ? List.of() : List.copyOf(answers);
        parseFailures = parseFailures == null ? List.of() : List.copyOf(parseFailures);
        signals = signals == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(signals));
        candidates = candidates == null ? List.of() : List.copyOf(candidates);
    }

    /** An answer without candidates. */
    public MethodAnswer(String prediction, List<String> answers, List<String> parseFailures,
                        Map<String, Double> signals, String raw) {
        this(prediction, answers, parseFailures, signals, raw, List.of());
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
        return new MethodAnswer(prediction, answers, parseFailures, signals, output, candidates);
    }

    /** This answer, recording the candidates it was chosen among. */
    public MethodAnswer withCandidates(List<Candidate> chosenAmong) {
        return new MethodAnswer(prediction, answers, parseFailures, signals, raw, chosenAmong);
    }

    public static MethodAnswer of(String prediction) {
        return new MethodAnswer(prediction, List.of(), List.of());
    }
}
