package dev.veracity.qa;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The answer normalisations of the official scripts, reproduced with Python 3 {@code str} semantics
 * ({@code str.lower}, {@code str.split()} on Unicode white space, {@code re} Unicode word boundaries).
 */
public final class AnswerNormalizer {

    /** Python's {@code string.punctuation}: ASCII only. */
    public static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    /** TriviaQA adds these to {@code string.punctuation} in {@code handle_punc}. */
    static final String TRIVIAQA_EXTRA_PUNCTUATION = "\u2018\u2019\u00b4`";
    private static final String[] ARTICLES = {"a", "an", "the"};

    private AnswerNormalizer() {}

    /**
     * SQuAD v1.1 {@code normalize_answer} (also HotpotQA, MuSiQue, DPR):
     * {@code white_space_fix(remove_articles(remove_punc(lower(s))))}; punctuation is deleted.
     */
    public static String squad(String s) {
        String lower = text(s).toLowerCase(Locale.ROOT);
        StringBuilder noPunct = new StringBuilder(lower.length());
        lower.codePoints().filter(cp -> cp >= 128 || PUNCTUATION.indexOf(cp) < 0).forEach(noPunct::appendCodePoint);
        return String.join(" ", pythonSplit(removeArticles(noPunct.toString())));
    }

    /** NQ-open / DPR: {@code unicodedata.normalize('NFD', s)} before the SQuAD normalisation. */
    public static String nqOpen(String s) {
        return squad(Normalizer.normalize(text(s), Normalizer.Form.NFD));
    }

    /**
     * TriviaQA {@code triviaqa_evaluation.py normalize_answer}:
     * {@code white_space_fix(remove_articles(handle_punc(lower(replace_underscore(s))))).strip()};
     * underscores become spaces and punctuation (plus ‘ ’ ´ `) is replaced by a space, not deleted.
     */
    public static String triviaQa(String s) {
        String lower = text(s).replace('_', ' ').toLowerCase(Locale.ROOT);
        StringBuilder punct = new StringBuilder(lower.length());
        lower.codePoints().forEach(cp -> {
            boolean p = (cp < 128 && PUNCTUATION.indexOf(cp) >= 0) || TRIVIAQA_EXTRA_PUNCTUATION.indexOf(cp) >= 0;
            if (p) punct.append(' '); else punct.appendCodePoint(cp);
        });
        return String.join(" ", pythonSplit(removeArticles(punct.toString())));
    }

    /** {@code re.sub(r'\b(a|an|the)\b', ' ', text)} with Python 3's Unicode {@code \b}. */
    static String removeArticles(String t) {
        StringBuilder out = new StringBuilder(t.length());
        int i = 0;
        while (i < t.length()) {
            boolean boundaryBefore = i == 0 || !isWordChar(t.codePointBefore(i));
            String hit = null;
            if (boundaryBefore) {
                for (String a : ARTICLES) { // alternation order a|an|the, backtracking when \b fails
                    int end = i + a.length();
                    if (t.startsWith(a, i) && (end == t.length() || !isWordChar(t.codePointAt(end)))) {
                        hit = a;
                        break;
                    }
                }
            }
            if (hit != null) {
                out.append(' ');
                i += hit.length();
            } else {
                int cp = t.codePointAt(i);
                out.appendCodePoint(cp);
                i += Character.charCount(cp);
            }
        }
        return out.toString();
    }

    /** Python 3 {@code re} word character: {@code str.isalnum()} or underscore. */
    static boolean isWordChar(int cp) {
        if (cp == '_' || Character.isLetter(cp) || Character.isDigit(cp)) return true;
        int type = Character.getType(cp);
        return type == Character.LETTER_NUMBER || type == Character.OTHER_NUMBER;
    }

    /** Python {@code str.isspace()}: Java's white space plus the no-break spaces and NEL. */
    static boolean isPythonSpace(int cp) {
        return Character.isWhitespace(cp) || cp == 0x85 || cp == 0xA0 || cp == 0x2007 || cp == 0x202F;
    }

    /** Python {@code str.split()} with no argument: split on runs of white space, no empty tokens. */
    public static List<String> pythonSplit(String t) {
        List<String> tokens = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        t.codePoints().forEach(cp -> {
            if (isPythonSpace(cp)) {
                if (!cur.isEmpty()) { tokens.add(cur.toString()); cur.setLength(0); }
            } else {
                cur.appendCodePoint(cp);
            }
        });
        if (!cur.isEmpty()) tokens.add(cur.toString());
        return tokens;
    }

    public static String text(String s) {
        return s == null ? "" : s;
    }
}
