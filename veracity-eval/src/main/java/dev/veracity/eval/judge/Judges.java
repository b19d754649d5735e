package dev.veracity.eval.judge;

import dev.veracity.llm.client.LlmClient;
import java.util.List;
import java.util.Locale;

/** The judges by command-line name. */
public final class Judges {

    private Judges() {
    }

    public static List<String> names() {
        return List.of("crag", "true-false", "equivalence");
    }

    /** Checks a judge name before anything is built; an unknown one is an error that lists the known ones. */
    public static void requireKnown(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (!List.of("crag", "truthrl", "true-false", "c3po", "c-3po", "equivalence").contains(n)) {
            throw new IllegalArgumentException("unknown judge '" + name + "'; known: " + String.join(", ", names()));
        }
    }

    /**
     * The judge of that name on the given client: {@code crag} (TruthRL's judge, the authors' released prompt), {@code
     * true-false} (C-3PO Appendix D.2), {@code equivalence} (ours). An unknown name lists the known ones.
     */
    public static Judge byName(String name, LlmClient client, JudgeOptions options) {
        return byName(name, client, options, JudgePrompt.AUTHORS);
    }

    /**
     * The same, with the text TruthRL's judge sends ({@link JudgePrompt}: the authors' released prompt or the paper's
     * Table 11); the other judges have one text each and ignore it.
     */
    public static Judge byName(String name, LlmClient client, JudgeOptions options, JudgePrompt text) {
        requireKnown(name);
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "crag", "truthrl" -> new CragJudge(client, options, text);
            case "true-false", "c3po", "c-3po" -> new TrueFalseJudge(client, options);
            case "equivalence" -> new EquivalenceJudge(client, options);
            default -> throw new IllegalArgumentException("unknown judge '" + name + "'; known: "
                    + String.join(", ", names()));
        };
    }
}
