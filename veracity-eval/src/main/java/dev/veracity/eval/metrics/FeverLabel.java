package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The three FEVER labels, with a total parser for the spellings models and data sets use. */
public enum FeverLabel {
    SUPPORTS, REFUTES, NOT_ENOUGH_INFO;

    private static final Map<String, FeverLabel> VARIANTS = Map.ofEntries(
            Map.entry("SUPPORTS", SUPPORTS), Map.entry("SUPPORT", SUPPORTS), Map.entry("SUPPORTED", SUPPORTS),
            Map.entry("REFUTES", REFUTES), Map.entry("REFUTE", REFUTES), Map.entry("REFUTED", REFUTES),
            Map.entry("NOT ENOUGH INFO", NOT_ENOUGH_INFO), Map.entry("NOT ENOUGH INFORMATION", NOT_ENOUGH_INFO),
            Map.entry("NEI", NOT_ENOUGH_INFO));

    /**
     * Case-insensitive; underscores and hyphens read as spaces, other ASCII punctuation and surrounding white space
     * are ignored: {@code "supported."}, {@code "NOT_ENOUGH_INFO"}, {@code "nei"} all parse. Anything else is empty.
     */
    public static Optional<FeverLabel> parse(String s) {
        if (s == null) return Optional.empty();
        StringBuilder b = new StringBuilder();
        s.toUpperCase(Locale.ROOT).codePoints().forEach(cp -> {
            if (cp == '_' || cp == '-') b.append(' ');
            else if (cp >= 128 || AnswerNormalizer.PUNCTUATION.indexOf(cp) < 0) b.appendCodePoint(cp);
        });
        return Optional.ofNullable(VARIANTS.get(String.join(" ", AnswerNormalizer.pythonSplit(b.toString()))));
    }
}
