package dev.veracity.methods.march;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Checker sample parsed: answers by the number the Checker gave them, and what could not be parsed (recorded,
 * never fatal). A question with no entry here is a missing answer, which counts as a mismatch.
 */
public record CheckerOutput(Map<Integer, CheckerAnswer> answers, List<String> problems) {

    public CheckerOutput {
        answers = answers == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(answers));
        problems = problems == null ? List.of() : List.copyOf(problems);
    }

    public Optional<CheckerAnswer> answer(int number) {
        return Optional.ofNullable(answers.get(number));
    }
}
