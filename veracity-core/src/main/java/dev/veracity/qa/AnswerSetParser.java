package dev.veracity.qa;

import dev.veracity.text.ReasoningBlocks;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a set of answers from a model's output; total and linear-time. MADAM-RAG's aggregator ends with
 * {@code All Correct Answers: [a, b]}; the authors' code never parses it, so this is ours. The method that writes
 * such lists and the metric that scores them both read them here, so they always agree.
 * <ol>
 *   <li>Reasoning blocks are removed first ({@link ReasoningBlocks}).</li>
 *   <li>The answer is the FIRST well-formed marker: {@code All Correct Answers} (any case, markdown around it)
 *       followed by a bracketed list. Only when no marker has a bracket, the first marker with a colon and an inline
 *       comma / semicolon list, read to "Explanation" or the end of its line.</li>
 *   <li>Text quoted from elsewhere never provides the answer: a marker inside a quotation on its line (an open
 *       {@code "}, curly quote, backtick or opening {@code '}) or on a markdown blockquote line does not count, and
 *       neither does a marker inside a span copied verbatim from one of the question's documents (a model that echoes
 *       its prompt repeats the planted marker of a misinformation document with the text around it).</li>
 *   <li>Without a marker: the first bracketed list in the text ({@code ["a", "b"]} JSON or Python style), else the
 *       first non-blank line as a comma / semicolon list; {@link Reading#marked()} is then false.</li>
 * </ol>
 * Items may be unquoted or quoted with {@code "}, {@code '}, or curly quotes (a quote opens only at the start of an
 * item, so {@code Rock 'n' Roll} stays whole; commas inside quotes do not split). An unquoted number keeps its
 * thousands separators ({@code [1,000, 2,500]} is two answers). Items are trimmed, empty items dropped, exact
 * duplicates removed; order is kept. An unclosed bracket runs to the end of the text; an unclosed opening quote (a
 * cut-off generation) is dropped.
 */
public final class AnswerSetParser {

    /** The marker, lower case. */
    public static final String MARKER = "all correct answers";

    /** Context compared around a marker to tell a copy of a document from the model's own answer. */
    private static final int BEFORE = 24;
    private static final int AFTER = 40;

    private AnswerSetParser() {
    }

    /**
     * What was read.
     *
     * @param answers the answer set
     * @param marked  whether a marker provided it (false: the fallback read an unmarked list)
     * @param text    the output with reasoning blocks removed, which {@code end} indexes
     * @param end     where the list ended in {@code text}
     */
    public record Reading(List<String> answers, boolean marked, String text, int end) {
        public Reading {
            answers = List.copyOf(answers);
        }
    }

    /** The answers of an output that is not checked against documents (a metric reading a prediction). */
    public static List<String> parse(String text) {
        return read(text, List.of()).answers();
    }

    /**
     * Reads an output.
     *
     * @param documents the texts the model was shown; a marker copied from one of them with its context never
     *                  counts (empty: no such check)
     */
    public static Reading read(String output, List<String> documents) {
        String t = ReasoningBlocks.strip(output);
        if (t.isBlank()) {
            return new Reading(List.of(), false, t, t.length());
        }
        Copies copies = Copies.of(t, documents == null ? List.of() : documents);
        QuoteState quotes = new QuoteState(t);
        int inline = -1;
        for (int p = indexOfMarker(t, 0); p >= 0; p = indexOfMarker(t, p + MARKER.length())) {
            if (quotes.quotedAt(p) || copies.copiedAt(p)) {
                continue;
            }
            int i = p + MARKER.length();
            boolean colon = false;
            while (i < t.length() && " \t*_#:\uFF1A".indexOf(t.charAt(i)) >= 0) {
                colon |= t.charAt(i) == ':' || t.charAt(i) == '\uFF1A';
                i++;
            }
            int j = i;
            while (j < t.length() && Character.isWhitespace(t.charAt(j))) {
                j++; // "### All Correct Answers\n\n[...]": the list on the next line
            }
            if (j < t.length() && t.charAt(j) == '[') {
                Split s = split(t, j + 1, true);
                return new Reading(s.items(), true, t, s.end());
            }
            if (colon && inline < 0 && i < t.length() && t.charAt(i) != '\n') {
                inline = i;
            }
        }
        if (inline >= 0) {
            int eol = t.indexOf('\n', inline);
            int lineEnd = eol < 0 ? t.length() : eol;
            int cut = indexOfIgnoreCase(t, "explanation", inline, lineEnd);
            String line = t.substring(inline, cut < 0 ? lineEnd : cut).strip();
            while (line.endsWith(".")) {
                line = line.substring(0, line.length() - 1).strip();
            }
            return new Reading(split(line, 0, false).items(), true, t, cut < 0 ? lineEnd : cut);
        }
        int bracket = t.indexOf('[');
        if (bracket >= 0) {
            Split s = split(t, bracket + 1, true);
            return new Reading(s.items(), false, t, s.end());
        }
        int start = 0;
        while (start < t.length() && Character.isWhitespace(t.charAt(start))) {
            start++;
        }
        int eol = t.indexOf('\n', start);
        int lineEnd = eol < 0 ? t.length() : eol;
        int cut = indexOfIgnoreCase(t, "explanation:", start, lineEnd);
        return new Reading(split(t.substring(start, cut < 0 ? lineEnd : cut), 0, false).items(), false, t, lineEnd);
    }

    private static int indexOfMarker(String t, int from) {
        return indexOfIgnoreCase(t, MARKER, from, t.length());
    }

    /** The first case-insensitive occurrence of lower-case {@code word} in {@code t[from, to)}, or -1. */
    static int indexOfIgnoreCase(String t, String word, int from, int to) {
        char first = word.charAt(0);
        char upper = Character.toUpperCase(first);
        for (int i = from; i + word.length() <= to; i++) {
            char c = t.charAt(i);
            if ((c == first || c == upper) && t.regionMatches(true, i, word, 0, word.length())) {
                return i;
            }
        }
        return -1;
    }

    /** The items of a list and where it ended in the text. */
    public record Split(List<String> items, int end) {
    }

    /** Splits from {@code start}; in a bracket, stops at the matching unquoted {@code ]}. */
    public static Split split(String t, int start, boolean inBracket) {
        List<String> raw = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean curBlank = true;
        boolean curNumber = false; // cur is (so far) an unquoted number: digits and thousands separators
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
            if (curBlank && (c == '"' || c == '\'' || c == '\u201C' || c == '\u2018')) {
                closeQuote = c == '\u201C' ? '\u201D' : c == '\u2018' ? '\u2019' : c;
                cur.setLength(0);
                cur.append(c);
                curBlank = false;
                curNumber = false;
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
            if (depth == 0 && c == ',' && curNumber && thousands(t, i)) {
                cur.append(c); // "1,000": one number
                continue;
            }
            if (depth == 0 && (c == ',' || c == ';')) {
                raw.add(cur.toString());
                cur.setLength(0);
                curBlank = true;
                curNumber = false;
                continue;
            }
            cur.append(c);
            if (!Character.isWhitespace(c)) {
                curNumber = (curBlank || curNumber) && (Character.isDigit(c) || (curBlank && "$\u20AC\u00A3+-".indexOf(c) >= 0));
                curBlank = false;
            }
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

    /** A comma at {@code i} between a digit and exactly three digits: a thousands separator. */
    private static boolean thousands(String t, int i) {
        if (i == 0 || !Character.isDigit(t.charAt(i - 1)) || i + 3 >= t.length()) {
            return false;
        }
        for (int k = 1; k <= 3; k++) {
            if (!Character.isDigit(t.charAt(i + k))) {
                return false;
            }
        }
        return i + 4 >= t.length() || !Character.isDigit(t.charAt(i + 4));
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

    /**
     * Whether a position lies inside a quotation on its line, or on a blockquote line. Asked for increasing
     * positions, it scans each character once.
     */
    private static final class QuoteState {
        private final String t;
        private int pos;
        private boolean dq;
        private boolean curly;
        private boolean single;
        private boolean singleCurly;
        private boolean code;
        private boolean blockquote;

        QuoteState(String t) {
            this.t = t;
            startLine(0);
        }

        private void startLine(int at) {
            dq = curly = single = singleCurly = code = false;
            int k = at;
            while (k < t.length() && (t.charAt(k) == ' ' || t.charAt(k) == '\t')) {
                k++;
            }
            blockquote = k < t.length() && t.charAt(k) == '>';
        }

        boolean quotedAt(int p) {
            for (; pos < p; pos++) {
                char c = t.charAt(pos);
                char prev = pos == 0 ? '\n' : t.charAt(pos - 1);
                char next = pos + 1 < t.length() ? t.charAt(pos + 1) : ' ';
                switch (c) {
                    case '\n' -> startLine(pos + 1);
                    case '"' -> dq = !dq;
                    case '\u201C' -> curly = true;
                    case '\u201D' -> curly = false;
                    case '\u2018' -> singleCurly = true;
                    case '\u2019' -> singleCurly = false;
                    case '`' -> code = !code;
                    case '\'' -> {
                        if (!single && (Character.isWhitespace(prev) || "([{:\"".indexOf(prev) >= 0)) {
                            single = true;
                        } else if (single && !Character.isLetterOrDigit(next)) {
                            single = false;
                        }
                    }
                    default -> {
                    }
                }
            }
            return blockquote || dq || curly || single || singleCurly || code;
        }
    }

    /** The places where the question's documents hold the marker, with the text around them. */
    private record Copies(String normalized, int[] normAt, Set<String> windows, Set<Long> shapes) {

        static final Copies NONE = new Copies("", new int[0], Set.of(), Set.of());

        static Copies of(String output, List<String> documents) {
            Set<String> windows = new HashSet<>();
            Set<Long> shapes = new HashSet<>();
            for (String d : documents) {
                if (d == null || indexOfMarker(d, 0) < 0) {
                    continue;
                }
                String n = normalize(d, null);
                for (int q = n.indexOf(MARKER); q >= 0; q = n.indexOf(MARKER, q + 1)) {
                    int b = Math.min(BEFORE, q);
                    int a = Math.min(AFTER, n.length() - q);
                    windows.add(b + "|" + a + "|" + n.substring(q - b, q + a));
                    shapes.add(((long) b << 32) | a);
                }
            }
            if (windows.isEmpty()) {
                return NONE;
            }
            int[] normAt = new int[output.length() + 1];
            return new Copies(normalize(output, normAt), normAt, windows, shapes);
        }

        boolean copiedAt(int p) {
            if (windows.isEmpty()) {
                return false;
            }
            int np = normAt[p];
            for (long shape : shapes) {
                int b = (int) (shape >>> 32);
                int a = (int) shape;
                if (np - b >= 0 && np + a <= normalized.length()
                        && windows.contains(b + "|" + a + "|" + normalized.substring(np - b, np + a))) {
                    return true;
                }
            }
            return false;
        }

        /** Lower case, whitespace runs as one space; {@code normAt[i]} = where raw index i lands. */
        static String normalize(String s, int[] normAt) {
            StringBuilder b = new StringBuilder(s.length());
            boolean space = false;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (normAt != null) {
                    normAt[i] = b.length() + (space && !Character.isWhitespace(c) ? 1 : 0);
                }
                if (Character.isWhitespace(c)) {
                    space = true;
                } else {
                    if (space) {
                        b.append(' ');
                    }
                    space = false;
                    b.append(Character.toLowerCase(c));
                }
            }
            if (normAt != null) {
                normAt[s.length()] = b.length();
            }
            return b.toString();
        }
    }
}
