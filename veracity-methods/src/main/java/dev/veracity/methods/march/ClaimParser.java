package dev.veracity.methods.march;

import java.util.ArrayList;
import java.util.List;

/**
 * The function Q(tau) of section 2.2: the Proposer's output to question-answer pairs. The authors parse
 * {@code -\s*Question:\s*(.*?)\s*\[Answer:\s*(.*?)\]}; this parser generalises it to what models write: any bullet
 * or numbering (or none), "Question 2:", bold markers, the answer bracketed or bare, pairs on one line or many,
 * reasoning blocks removed first. Total and linear-time: any string gives a result; pairs it cannot read are listed
 * as problems, and an output that holds no pair is told apart from one that says there is nothing to ask
 * ({@link Result#status()}).
 */
public final class ClaimParser {

    private static final String QUESTION = "question";

    private ClaimParser() {
    }

    /** What the Proposer's output amounted to. */
    public enum Status {
        /** At least one pair. */
        PAIRS,
        /** No pair, and the output says there is nothing to check (empty, or a short "no numbers" statement). */
        NO_CLAIMS,
        /** No pair could be read from an output that is neither: verification is impossible, not passed. */
        UNPARSEABLE
    }

    /** The pairs, numbered from 1 in order, and what could not be read. */
    public static Result parse(String output) {
        String text = ParseText.plain(output);
        List<int[]> markers = questionMarkers(text);
        List<Claim> claims = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (markers.isEmpty()) {
            if (text.isBlank()) {
                return new Result(claims, problems, Status.NO_CLAIMS);
            }
            Status status = saysNothingToAsk(text) ? Status.NO_CLAIMS : Status.UNPARSEABLE;
            if (status == Status.UNPARSEABLE) {
                problems.add("proposer: no 'Question:' in the output: '" + ParseText.abbreviate(text) + "'");
            }
            return new Result(claims, problems, status);
        }
        for (int i = 0; i < markers.size(); i++) {
            int body = markers.get(i)[1];
            int end = i + 1 < markers.size() ? markers.get(i + 1)[0] : text.length();
            ParseText.Mark a = ParseText.firstBracketedAnswer(text, body, end);
            if (a == null) {
                a = ParseText.firstAnswer(text, body, end);
            }
            if (a == null) {
                problems.add("proposer: question without an answer: '" + ParseText.abbreviate(text.substring(body, end)) + "'");
                continue;
            }
            String question = ParseText.cleanText(text.substring(body, a.start()));
            if (question.isEmpty() || a.answer().isEmpty()) {
                problems.add("proposer: empty question or answer: '" + ParseText.abbreviate(text.substring(body, end)) + "'");
                continue;
            }
            claims.add(new Claim(claims.size() + 1, question, a.answer()));
        }
        return new Result(claims, problems, claims.isEmpty() ? Status.UNPARSEABLE : Status.PAIRS);
    }

    /**
     * The markers that begin a pair: every "Question:" but one inside a quotation that opened after the last pair's
     * marker, before that pair has its answer, and not at the start of a line. That one is part of the question: a
     * Proposer quoting the verified text ("In the statement \"Question: ... Answer: ...\", what is the year?
     * [Answer: 1889]"), as the authors' non-greedy regex reads it. One scan of the text in all.
     */
    private static List<int[]> questionMarkers(String text) {
        List<int[]> out = new ArrayList<>();
        boolean answered = false; // whether the text since the last kept marker's body holds an answer
        int straight = 0; // '"' since then, mod 2
        int curly = 0; // opening minus closing curly double quotes since then
        int scanned = 0;
        for (int[] m : candidateMarkers(text)) {
            if (!out.isEmpty()) {
                if (!answered) {
                    answered = ParseText.firstAnswer(text, scanned, m[0]) != null;
                }
                for (int i = scanned; i < m[0]; i++) {
                    char c = text.charAt(i);
                    straight ^= c == '"' ? 1 : 0;
                    curly += c == '\u201C' ? 1 : c == '\u201D' ? -1 : 0;
                }
            }
            scanned = m[0];
            boolean quoted = straight == 1 || curly > 0;
            if (out.isEmpty() || answered || !quoted || beginsLine(text, m[0])) {
                out.add(m);
                answered = false;
                straight = 0;
                curly = 0;
                scanned = m[1];
            }
        }
        return out;
    }

    /** Whether only a bullet, numbering, markdown or spaces stand between the line's start and {@code at}. */
    private static boolean beginsLine(String text, int at) {
        for (int i = at - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (c == '\n') {
                return true;
            }
            if (!Character.isWhitespace(c) && !Character.isDigit(c) && "-*+#>.)([|\u2022\u2013\u2014".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Every "Question:" or "Question 2:" (not inside a word): {start, bodyStart} each. */
    private static List<int[]> candidateMarkers(String text) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i + QUESTION.length() <= text.length(); i++) {
            char c = text.charAt(i);
            if (c != 'q' && c != 'Q' || !text.regionMatches(true, i, QUESTION, 0, QUESTION.length())
                    || (i > 0 && ParseText.isWordChar(text.charAt(i - 1)))) {
                continue;
            }
            int p = i + QUESTION.length();
            while (p < text.length() && text.charAt(p) == ' ') {
                p++;
            }
            int digits = p;
            while (p < text.length() && p - digits < 3 && Character.isDigit(text.charAt(p))) {
                p++;
            }
            while (p < text.length() && text.charAt(p) == ' ') {
                p++;
            }
            if (p < text.length() && (text.charAt(p) == ':' || text.charAt(p) == '\uFF1A')) {
                out.add(new int[] {i, p + 1});
                i = p;
            }
        }
        return out;
    }

    /**
     * A Proposer that found no number says so briefly ("There are no numbers in the response.", "None"): without
     * any answer marker and with a negation, that is "nothing to check", not a parse failure.
     */
    private static boolean saysNothingToAsk(String text) {
        if (text.length() > 400 || !ParseText.answers(text, 0, text.length()).isEmpty()) {
            return false;
        }
        String t = ' ' + text.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z]+", " ") + ' ';
        return t.equals(" none ") || t.equals(" n a ") || t.contains(" no ") || t.contains(" not ")
                || t.contains(" nothing ") || t.contains(" none ") || t.contains(" zero ");
    }

    /** The parsed pairs, the problems met, and what the output amounted to. */
    public record Result(List<Claim> claims, List<String> problems, Status status) {
        public Result {
            claims = List.copyOf(claims);
            problems = List.copyOf(problems);
        }
    }
}
