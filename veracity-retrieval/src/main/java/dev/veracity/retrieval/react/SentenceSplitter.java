package dev.veracity.retrieval.react;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A simple sentence splitter: a sentence ends at {@code .}, {@code !} or {@code ?} (plus closing quotes or
 * brackets) followed by whitespace and then an upper-case letter, a digit or an opening quote; not after a single
 * capital initial ("J. R. R.") or a common abbreviation ("Mr.", "St.", "e.g.", "U.S."). Good enough for
 * Wikipedia-style prose; it never drops text (the sentences concatenate back to the input, up to whitespace).
 */
public final class SentenceSplitter {

    private static final Set<String> ABBREVIATIONS = Set.of("mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs",
            "etc", "e.g", "i.e", "u.s", "u.k", "no", "inc", "ltd", "co", "corp", "mt", "ft", "jan", "feb", "mar", "apr",
            "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "gen", "col", "lt", "sgt", "rev", "approx", "c");

    private SentenceSplitter() {
    }

    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        String t = text.strip();
        int start = 0;
        int n = t.length();
        for (int i = 0; i < n; i++) {
            char c = t.charAt(i);
            if (c != '.' && c != '!' && c != '?') {
                continue;
            }
            int end = i + 1;
            while (end < n && "\"')]\u201d\u2019".indexOf(t.charAt(end)) >= 0) {
                end++;
            }
            if (end >= n || !Character.isWhitespace(t.charAt(end))) {
                continue;
            }
            int next = end;
            while (next < n && Character.isWhitespace(t.charAt(next))) {
                next++;
            }
            if (next >= n) {
                break;
            }
            char nc = t.charAt(next);
            if (!(Character.isUpperCase(nc) || Character.isDigit(nc) || "\"'(\u201c\u2018".indexOf(nc) >= 0)) {
                continue;
            }
            if (c == '.' && isAbbreviation(t, start, i)) {
                continue;
            }
            out.add(t.substring(start, end).strip());
            start = next;
            i = next - 1;
        }
        if (start < n) {
            String last = t.substring(start).strip();
            if (!last.isEmpty()) {
                out.add(last);
            }
        }
        return out;
    }

    /** Whether the word before the period at {@code dot} is an initial or a known abbreviation. */
    private static boolean isAbbreviation(String t, int sentenceStart, int dot) {
        int w = dot;
        while (w > sentenceStart && !Character.isWhitespace(t.charAt(w - 1))) {
            w--;
        }
        String word = t.substring(w, dot).replaceAll("^[\"'(\\[]+", "");
        if (word.length() == 1 && Character.isUpperCase(word.charAt(0))) {
            return true;
        }
        return ABBREVIATIONS.contains(word.toLowerCase(java.util.Locale.ROOT));
    }
}
