package dev.veracity.qa;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Reads a set of answers from a model's output; total (never throws). MADAM-RAG's aggregator ends with
 * {@code All Correct Answers: [a, b]}; the authors' code never parses it, so this is ours. The method that writes
 * such lists and the metric that scores them both read them here, so they always agree. Accepted forms:
 * <ol>
 *   <li>the last {@code All Correct Answers:} marker (any case), followed by a bracketed list, or else by a
 *       comma / semicolon list up to the end of that line;</li>
 *   <li>without a marker, the first bracketed list in the text ({@code ["a", "b"]} JSON or Python style);</li>
 *   <li>otherwise the whole text as a comma / semicolon list.</li>
 * </ol>
 * Items may be unquoted or quoted with {@code "}, {@code '}, or curly quotes (a quote opens only at the start of an
 * item, so {@code Rock 'n' Roll} stays whole; commas inside quotes do not split). Items are trimmed, empty items
 * dropped, exact duplicates removed; order is kept. An unclosed bracket runs to the end of the text; an unclosed
 * opening quote (a cut-off generation) is dropped.
 */
public final class AnswerSetParser {

    /** The marker, lower case. */
    public static final String MARKER = "all correct answers";

    private AnswerSetParser() {
    }

    public static List<String> parse(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        int marker = text.toLowerCase(Locale.ROOT).lastIndexOf(MARKER);
        if (marker >= 0) {
            int i = marker + MARKER.length();
            while (i < text.length() && (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == ':')) {
                i++;
            }
            if (i < text.length() && text.charAt(i) == '[') {
                return split(text, i + 1, true).items();
            }
            int eol = text.indexOf('\n', i);
            return split(eol < 0 ? text.substring(i) : text.substring(i, eol), 0, false).items();
        }
        int bracket = text.indexOf('[');
        if (bracket >= 0) {
            return split(text, bracket + 1, true).items();
        }
        return split(text, 0, false).items();
    }

    /** The items of a list and where it ended in the text. */
    public record Split(List<String> items, int end) {
    }

    /** Splits from {@code start}; in a bracket, stops at the matching unquoted {@code ]}. */
    public static Split split(String t, int start, boolean inBracket) {
        List<String> raw = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int depth = 0;
        char closeQuote = 0;
        int i = start;
        for (; i < t.length(); i++) {
            char c = t.charAt(i);
            if (closeQuote != 0) {
                if (c == '\\' && i + 1 < t.length() && closeQuote != '\u201D' && closeQuote != '\u2019') {
                    cur.append(c).append(t.charAt(++i)); // kept; unquote() resolves it
                    continue;
                }
                cur.append(c);
                if (c == closeQuote) {
                    closeQuote = 0;
                }
                continue;
            }
            if (cur.toString().isBlank() && (c == '"' || c == '\'' || c == '\u201C' || c == '\u2018')) {
                closeQuote = c == '\u201C' ? '\u201D' : c == '\u2018' ? '\u2019' : c;
                cur.setLength(0);
                cur.append(c);
                continue;
            }
            if (inBracket && c == '[') {
                depth++;
            }
            if (inBracket && c == ']') {
                if (depth == 0) {
                    break;
                }
                depth--;
            }
            if (depth == 0 && (c == ',' || c == ';')) {
                raw.add(cur.toString());
                cur.setLength(0);
                continue;
            }
            cur.append(c);
        }
        raw.add(cur.toString());
        LinkedHashSet<String> items = new LinkedHashSet<>();
        for (String r : raw) {
            String item = unquote(r.strip()).strip();
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return new Split(List.copyOf(items), i);
    }

    /** Removes quotes around a whole item ({@code "a"}, {@code 'a'}, curly) and resolves backslash escapes. */
    private static String unquote(String s) {
        if (s.length() < 2) {
            return s;
        }
        char first = s.charAt(0);
        char last = s.charAt(s.length() - 1);
        if ((first == '\u201C' && last == '\u201D') || (first == '\u2018' && last == '\u2019')) {
            return s.substring(1, s.length() - 1);
        }
        if (!((first == '"' || first == '\'') && last == first)) {
            // an unclosed opening quote (a cut-off generation) is dropped
            return (first == '"' || first == '\u201C') && s.indexOf(first == '"' ? '"' : '\u201D', 1) < 0 ? s.substring(1) : s;
        }
        String inner = s.substring(1, s.length() - 1);
        StringBuilder b = new StringBuilder(inner.length());
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == '\\' && i + 1 < inner.length()) {
                char n = inner.charAt(++i);
                b.append(switch (n) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> n;
                });
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
