package dev.veracity.eval.ramdocs;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The coarse type of an answer, so that misinformation swaps an answer for an entity of the same type (after
 * Longpre et al., 2021, as RAMDocs does). Heuristic, in this order:
 * <ol>
 *   <li>{@code DATE}: a month name (or its three-letter abbreviation) together with a digit;</li>
 *   <li>{@code YEAR}: a four-digit number 1000-2099 alone (optionally with "AD", "BC", "in");</li>
 *   <li>{@code NUMBER}: starts with a digit, or a number word and a digit, e.g. "3,559 people", "12.5 km", "$40";</li>
 *   <li>{@code NAME}: every other text (people, places, works, organisations).</li>
 * </ol>
 */
public enum AnswerType {
    DATE, YEAR, NUMBER, NAME;

    private static final Pattern MONTH = Pattern.compile(
            "\\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\b");
    private static final Pattern YEAR_ONLY = Pattern.compile("(?:in\\s+)?(1\\d{3}|20\\d{2})(?:\\s*(?:ad|bc|ce|bce))?");
    private static final Pattern NUMERIC = Pattern.compile("^[~$\u00a3\u20ac]?\\s*\\d.*|.*\\d[\\d,.]*\\s*%?$");

    public static AnswerType of(String answer) {
        String a = answer == null ? "" : answer.strip().toLowerCase(Locale.ROOT);
        boolean digit = a.chars().anyMatch(Character::isDigit);
        if (digit && MONTH.matcher(a).find()) {
            return DATE;
        }
        if (YEAR_ONLY.matcher(a).matches()) {
            return YEAR;
        }
        if (digit && NUMERIC.matcher(a).matches()) {
            return NUMBER;
        }
        return NAME;
    }
}
