package dev.veracity.eval.judge;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a judge grades: the question, the system's prediction, the gold answers and, for time-sensitive
 * benchmarks (CRAG), the time the question was asked.
 *
 * @param question    the question
 * @param prediction  the prediction to grade ("" when the system gave none)
 * @param goldAnswers the acceptable answers, at least one
 * @param queryTime   when the question was asked, if the benchmark records it
 */
public record JudgeInput(String question, String prediction, List<String> goldAnswers, Optional<String> queryTime) {

    public JudgeInput {
        question = Objects.requireNonNullElse(question, "");
        prediction = Objects.requireNonNullElse(prediction, "");
        goldAnswers = goldAnswers == null ? List.of()
                : goldAnswers.stream().map(g -> Objects.requireNonNullElse(g, "")).toList();
        if (goldAnswers.isEmpty()) {
            throw new IllegalArgumentException("a judge needs at least one gold answer");
        }
        queryTime = queryTime == null ? Optional.empty() : queryTime;
    }

    public static JudgeInput of(String question, String prediction, List<String> goldAnswers) {
        return new JudgeInput(question, prediction, goldAnswers, Optional.empty());
    }

    public static JudgeInput of(String question, String prediction, String... goldAnswers) {
        return of(question, prediction, List.of(goldAnswers));
    }

    public JudgeInput withQueryTime(String time) {
        return new JudgeInput(question, prediction, goldAnswers, Optional.ofNullable(time));
    }
}
