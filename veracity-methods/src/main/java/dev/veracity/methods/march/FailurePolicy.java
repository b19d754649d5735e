package dev.veracity.methods.march;

import java.util.Locale;

/** What {@link MarchMethod} does with an answer whose verification found a fault (option {@code policy}). */
public enum FailurePolicy {
    /** Return the Solver's answer anyway; the verification is reported beside it (default). */
    REPORT,
    /** Return "I don't know" instead. */
    ABSTAIN,
    /** Sample the Solver again, up to {@code r} more times, and return the first answer that passes (else the last). */
    REGENERATE;

    public static FailurePolicy of(String s) {
        return switch (s.toLowerCase(Locale.ROOT).strip()) {
            case "report" -> REPORT;
            case "abstain" -> ABSTAIN;
            case "regenerate" -> REGENERATE;
            default -> throw new IllegalArgumentException("option policy must be report, abstain or regenerate, was '" + s + "'");
        };
    }
}
