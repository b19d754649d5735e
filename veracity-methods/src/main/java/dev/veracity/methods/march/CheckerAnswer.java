package dev.veracity.methods.march;

import java.util.Locale;
import java.util.Objects;

/** One answer of one Checker sample: its number, the evidence it stated and the answer text. */
public record CheckerAnswer(int number, String evidence, String answer) {

    public CheckerAnswer {
        evidence = Objects.requireNonNullElse(evidence, "");
        answer = Objects.requireNonNullElse(answer, "");
    }

    /** "Cannot answer" (A.3) or a close paraphrase; always a mismatch. */
    public boolean cannotAnswer() {
        return isCannotAnswer(answer);
    }

    static boolean isCannotAnswer(String s) {
        if (s == null || s.isBlank()) {
            return true;
        }
        String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9/ ]", " ").replaceAll("\\s+", " ").strip();
        return t.contains("cannot answer") || t.contains("can not answer") || t.contains("cannot be answered")
                || t.contains("unanswerable") || t.equals("n/a") || t.equals("none") || t.equals("unknown");
    }
}
