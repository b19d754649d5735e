package dev.veracity.qa;

import java.util.regex.Pattern;

/**
 * The answer normalisation of the SQuAD v1.1 evaluation script ({@code normalize_answer}), which HotpotQA,
 * MuSiQue and most QA code reuse: lower-case, remove punctuation (Python's {@code string.punctuation}), remove
 * the articles a / an / the, collapse white space. Patterns are Unicode-aware, as Python 3 regular expressions are.
 */
public final class AnswerNormalizer {

    private static final Pattern ARTICLES = Pattern.compile("\\b(a|an|the)\\b", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern SPACES = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);
    /** Python's string.punctuation: !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ */
    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

    private AnswerNormalizer() {
    }

    public static String squad(String s) {
        if (s == null) {
            return "";
        }
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        StringBuilder noPunct = new StringBuilder(lower.length());
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (PUNCTUATION.indexOf(c) < 0) {
                noPunct.append(c);
            }
        }
        String noArticles = ARTICLES.matcher(noPunct).replaceAll(" ");
        return SPACES.matcher(noArticles.strip()).replaceAll(" ");
    }
}
