package dev.veracity.methods.march;

import dev.veracity.text.ReasoningBlocks;
import java.util.ArrayList;
import java.util.List;

/**
 * Clean-up and marker scanning shared by the Proposer's and the Checker's parsers. Hand scanners, not regexes: every
 * function here runs in time linear in its input, whatever the model wrote (100k spaces after "[Answer:", thousands
 * of markers without a closing bracket).
 */
final class ParseText {

    private static final String ANSWER = "answer";
    private static final String QUOTES = "\"'`*\u201C\u201D\u2018\u2019";

    private ParseText() {
    }

    /**
     * What the parsers read: reasoning blocks removed ({@link ReasoningBlocks}), line ends unified, markdown bold
     * removed, odd spaces made plain; null becomes "".
     */
    static String plain(String s) {
        String t = ReasoningBlocks.strip(s);
        return t.replace("\r\n", "\n").replace('\r', '\n').replace("**", "").replace("__", "")
                .replace('\u00A0', ' ').replace('\u2009', ' ').replace('\u202F', ' ');
    }

    /**
     * An answer marker: {@code [Answer: x]} (bracket closed on the same line) or a bare {@code Answer: x} running to
     * the end of its line (or a {@code ]}).
     *
     * @param start     where the marker begins ({@code [} or the word)
     * @param end       just after it
     * @param answer    the answer text, cleaned ({@link #cleanAnswer})
     * @param bracketed whether it was the bracketed form
     */
    record Mark(int start, int end, String answer, boolean bracketed) {
    }

    /** Every answer marker in {@code s[from, to)}, in order. */
    static List<Mark> answers(String s, int from, int to) {
        return answers(s, from, to, Integer.MAX_VALUE, false);
    }

    /**
     * The first {@code [Answer: x]} in {@code s[from, to)}, or null: bare markers are passed over, so a bare
     * "Answer:" quoted earlier in the text ("In the statement \"... Answer: it opened in 1889\", what is the year?
     * [Answer: 1889]") does not hide the bracketed answer after it.
     */
    static Mark firstBracketedAnswer(String s, int from, int to) {
        List<Mark> one = answers(s, from, to, 1, true);
        return one.isEmpty() ? null : one.getFirst();
    }

    /** The first answer marker in {@code s[from, to)}, or null; scans no further than it. */
    static Mark firstAnswer(String s, int from, int to) {
        List<Mark> one = answers(s, from, to, 1, false);
        return one.isEmpty() ? null : one.getFirst();
    }

    private static List<Mark> answers(String s, int from, int to, int max, boolean bracketedOnly) {
        List<Mark> out = new ArrayList<>();
        int stop = -1; // the next ']' or '\n' at or after the last position asked for: shared by later markers
        int stopFrom = Integer.MAX_VALUE;
        for (int i = from; i + ANSWER.length() <= to && out.size() < max; i++) {
            char c = s.charAt(i);
            if (c != 'a' && c != 'A' || !s.regionMatches(true, i, ANSWER, 0, ANSWER.length())) {
                continue;
            }
            int colon = i + ANSWER.length();
            while (colon < to && (s.charAt(colon) == ' ' || s.charAt(colon) == '\t')) {
                colon++;
            }
            if (colon >= to || (s.charAt(colon) != ':' && s.charAt(colon) != '\uFF1A')) {
                continue;
            }
            int open = i - 1;
            while (open >= from && (s.charAt(open) == ' ' || s.charAt(open) == '\t')) {
                open--;
            }
            boolean bracketed = open >= from && s.charAt(open) == '[';
            if (!bracketed && bracketedOnly) {
                i = colon;
                continue;
            }
            if (!bracketed && i > from && isWordChar(s.charAt(i - 1))) {
                continue; // "ReAnswer:" is not a marker
            }
            int body = colon + 1;
            if (stopFrom > body || stop < body) {
                stop = nextStop(s, body, to);
                stopFrom = body;
            }
            boolean closed = stop < to && s.charAt(stop) == ']';
            if (bracketed && !closed) {
                // "[Answer: 5" cut off: the number may be cut too; not an answer
                i = colon;
                continue;
            }
            String answer = cleanAnswer(s.substring(body, stop));
            int end = bracketed ? stop + 1 : stop;
            out.add(new Mark(bracketed ? open : i, end, answer, bracketed));
            i = Math.max(i, end - 1);
        }
        return out;
    }

    private static int nextStop(String s, int from, int to) {
        for (int j = from; j < to; j++) {
            char c = s.charAt(j);
            if (c == ']' || c == '\n') {
                return j;
            }
        }
        return to;
    }

    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** Trimmed; surrounding (curly) quotes, backticks and emphasis removed; trailing dashes and {@code . , ;} dropped. */
    static String cleanAnswer(String a) {
        if (a == null) {
            return "";
        }
        int b = 0;
        int e = a.length();
        while (b < e && (Character.isWhitespace(a.charAt(b)) || QUOTES.indexOf(a.charAt(b)) >= 0)) {
            b++;
        }
        boolean changed = true;
        while (changed && e > b) {
            char c = a.charAt(e - 1);
            changed = Character.isWhitespace(c) || QUOTES.indexOf(c) >= 0 || "\u2013\u2014-.,;".indexOf(c) >= 0;
            if (changed) {
                e--;
            }
        }
        return a.substring(b, e);
    }

    /** Leading bullets and colons and trailing brackets or dashes removed; whitespace runs made one space. */
    static String cleanText(String s) {
        if (s == null) {
            return "";
        }
        int b = 0;
        int e = s.length();
        while (b < e && (Character.isWhitespace(s.charAt(b)) || "-*\u2022:".indexOf(s.charAt(b)) >= 0)) {
            b++;
        }
        while (e > b && (Character.isWhitespace(s.charAt(e - 1)) || "[(\u2013\u2014-".indexOf(s.charAt(e - 1)) >= 0)) {
            e--;
        }
        StringBuilder out = new StringBuilder(e - b);
        boolean space = false;
        for (int i = b; i < e; i++) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                space = true;
            } else {
                if (space && !out.isEmpty()) {
                    out.append(' ');
                }
                space = false;
                out.append(c);
            }
        }
        return out.toString();
    }

    static String abbreviate(String s) {
        String t = cleanText(s);
        return t.length() <= 160 ? t : t.substring(0, 157) + "...";
    }
}
