package dev.veracity.methods.madam;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an agent's {@code Answer: ... Explanation: ...} (Appendix E's format); total, never throws. The authors'
 * code takes the text between "Answer: " and "Explanation"; we accept also markdown ({@code **Answer:**}), any
 * case, a missing explanation (the answer then runs to the end of its line), text before the marker, braces or
 * quotes the model copied from the format ({@code Answer: {1963}.}) and a trailing full stop. The first
 * "Answer:" marker counts (an explanation may quote other agents' "Answer: ..." lines).
 */
public final class AgentOutputParser {

    private static final Pattern ANSWER = Pattern.compile("(?i)(?<![a-z])(?:final\\s+)?answer\\s*\\**\\s*:\\s*\\**");
    private static final Pattern EXPLANATION = Pattern.compile("(?i)[\\s*]*(?:explanation|reasoning|rationale)\\s*\\**\\s*:");

    private AgentOutputParser() {
    }

    public static AgentOutput parse(String text) {
        String raw = text == null ? "" : text;
        Matcher a = ANSWER.matcher(raw);
        if (!a.find()) {
            Matcher e = EXPLANATION.matcher(raw);
            String explanation = e.find() ? raw.substring(e.end()).strip() : raw.strip();
            return new AgentOutput("", explanation, raw, false);
        }
        int start = a.end();
        Matcher e = EXPLANATION.matcher(raw);
        String answer;
        String explanation = "";
        if (e.find(start)) {
            answer = raw.substring(start, e.start());
            explanation = raw.substring(e.end()).strip();
        } else {
            int eol = raw.indexOf('\n', start);
            answer = eol < 0 ? raw.substring(start) : raw.substring(start, eol);
            if (eol >= 0) {
                explanation = raw.substring(eol + 1).strip();
            }
        }
        return new AgentOutput(clean(answer), clean(explanation), raw, true);
    }

    /** Strips white space, markdown emphasis, a trailing full stop, and braces or quotes around the whole text. */
    static String clean(String s) {
        String t = s.strip();
        boolean changed = true;
        while (changed && !t.isEmpty()) {
            changed = false;
            String before = t;
            t = t.replaceAll("^\\*+|\\*+$", "").strip();
            if (t.endsWith(".") && !t.endsWith("..") && !endsWithAbbreviation(t)) {
                t = t.substring(0, t.length() - 1).strip();
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
