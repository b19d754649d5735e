package dev.veracity.methods.march;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Ours ({@code match=strict}): both answers read by {@link NumberParser} ("10k" = "10000", "1e3" = "1000",
 * "2.5 million" = "2500000", "45%" = "45") and compared with a relative tolerance (default 1e-6, option
 * {@code rel-tol}), so "0.5" != "0.55" and "50.1" != "50". Two non-numbers match only when equal ignoring case
 * and spacing; "Cannot answer" never matches.
 */
final class StrictNumericMatch implements AnswerMatcher {

    private final double relativeTolerance;

    StrictNumericMatch(double relativeTolerance) {
        if (!(relativeTolerance >= 0)) {
            throw new IllegalArgumentException("relative tolerance must be >= 0, was " + relativeTolerance);
        }
        this.relativeTolerance = relativeTolerance;
    }

    @Override
    public boolean matches(String claimed, String checked) {
        if (claimed == null || checked == null || claimed.isBlank() || CheckerAnswer.isCannotAnswer(checked)) {
            return false;
        }
        OptionalDouble a = NumberParser.parse(claimed);
        OptionalDouble b = NumberParser.parse(checked);
        if (a.isPresent() && b.isPresent()) {
            return NumberParser.close(a.getAsDouble(), b.getAsDouble(), relativeTolerance);
        }
        if (a.isPresent() || b.isPresent()) {
            return false;
        }
        return norm(claimed).equals(norm(checked));
    }

    private static String norm(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }
}
