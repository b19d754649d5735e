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

    /**
     * The judge of that name on the given client: {@code crag} (TruthRL Table 11, CRAG's JSON score), {@code
     * true-false} (C-3PO Appendix D.2), {@code equivalence} (ours). An unknown name lists the known ones.
     */
    public static Judge byName(String name, LlmClient client, JudgeOptions options) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "crag", "truthrl" -> new CragJudge(client, options);
            case "true-false", "c3po", "c-3po" -> new TrueFalseJudge(client, options);
            case "equivalence" -> new EquivalenceJudge(client, options);
            default -> throw new IllegalArgumentException("unknown judge '" + name + "'; known: "
                    + String.join(", ", names()));
        };
    }
}
