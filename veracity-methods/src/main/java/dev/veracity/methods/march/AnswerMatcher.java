package dev.veracity.methods.march;

import java.util.Locale;

/**
 * Whether a Checker answer confirms a claimed answer: the identity {@code a_i = \hat{a}_i} of equation 7. Total:
 * null, empty, "Cannot answer" and unparseable answers are mismatches, never exceptions.
 */
@FunctionalInterface
public interface AnswerMatcher {

    boolean matches(String claimed, String checked);

    /** The authors' rule (default), see {@link AuthorsMatch}. */
    static AnswerMatcher authors() {
        return AuthorsMatch.INSTANCE;
    }

    /** Scale words, suffixes, scientific notation and percentages understood; relative tolerance. Ours. */
    static AnswerMatcher strict(double relativeTolerance) {
        return new StrictNumericMatch(relativeTolerance);
    }

    /** Our extension for non-numeric claims (dates, yes/no, names); numbers as {@link #strict}. */
    static AnswerMatcher typed(double relativeTolerance) {
        return new TypedClaimMatch(relativeTolerance);
    }

    /** By option value: {@code authors}, {@code strict} or {@code typed}. */
    static AnswerMatcher byName(String name, double relativeTolerance) {
        return switch (name.toLowerCase(Locale.ROOT).strip()) {
            case "authors" -> authors();
            case "strict" -> strict(relativeTolerance);
            case "typed" -> typed(relativeTolerance);
            default -> throw new IllegalArgumentException("option match must be authors, strict or typed, was '" + name + "'");
        };
    }
}
