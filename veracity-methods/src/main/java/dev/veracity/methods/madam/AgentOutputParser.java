package dev.veracity.methods.madam;

import dev.veracity.text.ReasoningBlocks;
import java.util.Locale;

/**
 * Reads an agent's {@code Answer: ... Explanation: ...} (Appendix E's format); total and linear-time. The authors'
 * code takes the text between "Answer: " and "Explanation"; we accept also markdown ({@code **Answer:**}), any
 * case, a missing explanation (the answer then runs to the end of its line), text before the marker, braces or
 * quotes the model copied from the format ({@code Answer: {1963}.}) and a trailing full stop. Reasoning blocks are
 * removed first. The answer is the first "Answer:" that starts a line (after markdown, a bullet or "Final"), else
 * the first one anywhere; an "answer:" inside an echo of the question's own text never counts, and an explanation
 * that quotes other agents' "Answer: ..." comes after the agent's own.
 */
public final class AgentOutputParser {

    private static final String ANSWER = "answer";
    private static final String[] EXPLANATION = {"explanation", "reasoning", "rationale"};

    private AgentOutputParser() {
    }

    public static AgentOutput parse(String text) {
        return parse(text, "");
    }

    /** @param question the question the agent answered: an echo of it in the output is not read for markers */
    public static AgentOutput parse(String text, String question) {
        String raw = text == null ? "" : text;
        String t = ReasoningBlocks.strip(raw);
        boolean[] echoed = echoes(t, question);
        int lineStartMarker = -1;
        int anyMarker = -1;
        for (int i = 0; i + ANSWER.length() <= t.length() && lineStartMarker < 0; i++) {
            char c = t.charAt(i);
            if (c != 'a' && c != 'A' || !t.regionMatches(true, i, ANSWER, 0, ANSWER.length())
                    || (i > 0 && Character.isLetterOrDigit(t.charAt(i - 1))) || (echoed != null && echoed[i])) {
                continue;
            }
            int body = afterColon(t, i + ANSWER.length());
            if (body < 0) {
                continue;
            }
            if (startsLine(t, i)) {
                lineStartMarker = body;
            } else if (anyMarker < 0) {
                anyMarker = body;
            }
        }
        int start = lineStartMarker >= 0 ? lineStartMarker : anyMarker;
        if (start < 0) {
            int e = explanation(t, 0);
            String explanation = e >= 0 ? t.substring(e).strip() : t.strip();
            return new AgentOutput("", explanation, raw, false);
        }
        int eol = lineEnd(t, start);
        int e = explanation(t, start);
        // where the explanation's keyword begins (never before the answer: "Answer: Explanation: ..." is empty)
        int keyword = e >= 0 ? Math.max(start, keywordStart(t, e)) : t.length();
        String answer = t.substring(start, Math.min(keyword, eol));
        if (answer.isBlank() && eol < t.length() && keyword > eol) {
            int next = eol + 1; // "Answer:\n1963\nExplanation: ..."
            while (next < t.length() && Character.isWhitespace(t.charAt(next))) {
                next++;
            }
            int nextEol = lineEnd(t, next);
            int answerEnd = Math.min(keyword, nextEol);
            answer = t.substring(Math.min(next, answerEnd), answerEnd);
            eol = nextEol;
        }
        String explanation = e >= 0 ? t.substring(e) : eol < t.length() ? t.substring(eol + 1) : "";
        return new AgentOutput(clean(answer), clean(explanation), raw, true);
    }

    /** After "answer", optional spaces and emphasis, a colon and more of them: where the answer begins, or -1. */
    private static int afterColon(String t, int i) {
        while (i < t.length() && (t.charAt(i) == ' ' || t.charAt(i) == '*' || t.charAt(i) == '\t')) {
            i++;
        }
        if (i >= t.length() || (t.charAt(i) != ':' && t.charAt(i) != '\uFF1A')) {
            return -1;
        }
        i++;
        while (i < t.length() && (t.charAt(i) == ' ' || t.charAt(i) == '*' || t.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** Whether only decoration (spaces, emphasis, a heading mark, a bullet, "Final") precedes {@code i} on its line. */
    private static boolean startsLine(String t, int i) {
        int k = i - 1;
        while (k >= 0 && " \t*#>-\u2022_".indexOf(t.charAt(k)) >= 0) {
            k--;
        }
        if (k >= 4 && t.regionMatches(true, k - 4, "final", 0, 5)) {
            k -= 5;
            while (k >= 0 && " \t*#>-\u2022_".indexOf(t.charAt(k)) >= 0) {
                k--;
            }
        }
        return k < 0 || t.charAt(k) == '\n' || t.charAt(k) == '\r';
    }

    private static int lineEnd(String t, int from) {
        int eol = t.indexOf('\n', from);
        return eol < 0 ? t.length() : eol;
    }

    /**
     * The first "Explanation:" (or "Reasoning:", "Rationale:", emphasis allowed) at or after {@code from}: the index
     * just after its colon, or -1.
     */
    private static int explanation(String t, int from) {
        return afterKeyword(t, from, EXPLANATION);
    }

    /**
     * The first of {@code keywords} (lower case, any case in the text) at or after {@code from} that a colon follows
     * (emphasis and spaces allowed around it): the index where the text after the colon begins, or -1. Linear: each
     * position is tried against each keyword once. The aggregator's parser reads its "Explanation:" with it too.
     */
    static int afterKeyword(String t, int from, String... keywords) {
        for (int i = Math.max(0, from); i < t.length(); i++) {
            char c = Character.toLowerCase(t.charAt(i));
            for (String k : keywords) {
                if (c == k.charAt(0) && t.regionMatches(true, i, k, 0, k.length())) {
                    int body = afterColon(t, i + k.length());
                    if (body >= 0) {
                        return body;
                    }
                }
            }
        }
        return -1;
    }

    /** The start of the keyword whose colon ends just before {@code body} (walks back over the colon and emphasis). */
    private static int keywordStart(String t, int body) {
        int k = body - 1;
        while (k >= 0 && (t.charAt(k) == ' ' || t.charAt(k) == '*' || t.charAt(k) == '\t')) {
            k--;
        }
        k--; // the colon
        while (k >= 0 && (t.charAt(k) == ' ' || t.charAt(k) == '*' || t.charAt(k) == '\t')) {
            k--;
        }
        while (k >= 0 && Character.isLetter(t.charAt(k))) {
            k--;
        }
        int start = k + 1;
        while (start > 0 && (t.charAt(start - 1) == '*' || t.charAt(start - 1) == ' ')) {
            start--;
        }
        return start;
    }

    /** Marks the characters of every echo of the question (when it is long enough to be told from an answer). */
    private static boolean[] echoes(String t, String question) {
        String q = question == null ? "" : question.strip();
        if (q.length() < 12 || ANSWER.length() > q.length() || q.toLowerCase(Locale.ROOT).indexOf(ANSWER) < 0) {
            return null;
        }
        boolean[] marked = null;
        for (int at = t.indexOf(q); at >= 0; at = t.indexOf(q, at + q.length())) {
            if (marked == null) {
                marked = new boolean[t.length()];
            }
            java.util.Arrays.fill(marked, at, at + q.length(), true);
        }
        return marked;
    }

    /** Strips white space, markdown emphasis, a trailing full stop, and braces or quotes around the whole text. */
    static String clean(String s) {
        String t = s.strip();
        boolean changed = true;
        while (changed && !t.isEmpty()) {
            String before = t;
            int b = 0;
            int e = t.length();
            while (b < e && t.charAt(b) == '*') {
                b++;
            }
            while (e > b && t.charAt(e - 1) == '*') {
                e--;
            }
            t = t.substring(b, e).strip();
            if (t.endsWith(".") && !endsWithAbbreviation(t)
                    && (!t.endsWith("..") || endsWithAbbreviation(t.substring(0, t.length() - 1)))) {
                t = t.substring(0, t.length() - 1).strip(); // "D.C.." is "D.C." and a full stop
            }
            if (t.length() >= 2 && isPair(t.charAt(0), t.charAt(t.length() - 1))) {
                t = t.substring(1, t.length() - 1).strip();
            }
            changed = !t.equals(before);
        }
        return t;
    }

    private static boolean endsWithAbbreviation(String t) {
        // "Washington D.C." or "Jr." keep their dot: a one- or two-letter capitalised last token.
        int sp = Math.max(t.lastIndexOf(' '), -1);
        String last = t.substring(sp + 1);
        return last.length() <= 4 && last.matches("(?:[A-Z]\\.)+|Jr\\.|Sr\\.|St\\.");
    }

    private static boolean isPair(char open, char close) {
        return (open == '{' && close == '}') || (open == '[' && close == ']') || (open == '"' && close == '"')
                || (open == '\'' && close == '\'') || (open == '\u201C' && close == '\u201D')
                || (open == '\u2018' && close == '\u2019');
    }

    /** The normalised form compared across rounds (SQuAD normalisation, as the authors' early stop). */
    static String normalized(String answer) {
        return dev.veracity.qa.AnswerNormalizer.squad(answer == null ? "" : answer).toLowerCase(Locale.ROOT);
    }
}
