package dev.veracity.methods.madam;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the aggregator's {@code All Correct Answers: [...]. Explanation: ...}; total, never throws. The authors'
 * code never parses it. This mirrors veracity-eval's {@code AnswerSetParser} (which this module cannot depend on)
 * so the method's answer set and the metric's agree:
 * <ol>
 *   <li>the last "All Correct Answers" marker (any case, markdown allowed), then a bracketed list, or else a comma
 *       / semicolon list up to "Explanation" or the end of the line;</li>
 *   <li>items unquoted or quoted with {@code "}, {@code '} or curly quotes (a quote opens only at the start of an
 *       item, so {@code Rock 'n' Roll} stays whole; commas inside quotes do not split);</li>
 *   <li>no marker: a parse failure; the first bracketed list, else the first line as a list, is the fallback.</li>
 * </ol>
 * Only model output is ever given to this parser, never a prompt, so a document that contains
 * "All Correct Answers: [...]" cannot change the result.
 */
public final class AggregatorOutputParser {

    private static final String MARKER = "all correct answers";
    private static final Pattern EXPLANATION = Pattern.compile("(?i)explanation\\s*\\**\\s*:");

    private AggregatorOutputParser() {
    }

    public static AggregatorOutput parse(String text) {
        String raw = text == null ? "" : text;
        int marker = raw.toLowerCase(Locale.ROOT).lastIndexOf(MARKER);
        if (marker < 0) {
            int bracket = raw.indexOf('[');
            List<String> fallback;
            if (bracket >= 0) {
                fallback = split(raw, bracket + 1, true).items();
            } else {
                String firstLine = raw.strip().lines().findFirst().orElse("");
                Matcher e = EXPLANATION.matcher(firstLine);
                fallback = split(e.find() ? firstLine.substring(0, e.start()) : firstLine, 0, false).items();
            }
            return new AggregatorOutput(fallback, explanationAfter(raw, 0), raw, false);
        }
        int i = marker + MARKER.length();
        while (i < raw.length() && (Character.isWhitespace(raw.charAt(i)) || raw.charAt(i) == ':' || raw.charAt(i) == '*')) {
            i++;
        }
        Split s;
        if (i < raw.length() && raw.charAt(i) == '[') {
            s = split(raw, i + 1, true);
        } else {
            int eol = raw.indexOf('\n', i);
            String line = eol < 0 ? raw.substring(i) : raw.substring(i, eol);
            Matcher e = EXPLANATION.matcher(line);
            if (e.find()) {
                line = line.substring(0, e.start());
            }
            s = split(line.strip().replaceAll("\\.$", ""), 0, false);
            s = new Split(s.items(), i + line.length());
        }
        return new AggregatorOutput(s.items(), explanationAfter(raw, s.end()), raw, true);
    }

    private static String explanationAfter(String raw, int from) {
        Matcher e = EXPLANATION.matcher(raw);
        return e.find(Math.min(from, raw.length())) ? raw.substring(e.end()).strip() : "";
    }

    private record Split(List<String> items, int end) {
    }

    /** Splits from {@code start}; in a bracket, stops at the matching unquoted {@code ]}. */
    private static Split split(String t, int start, boolean inBracket) {
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
            b.append(c == '\\' && i + 1 < inner.length() ? inner.charAt(++i) : c);
        }
        return b.toString();
    }
}
