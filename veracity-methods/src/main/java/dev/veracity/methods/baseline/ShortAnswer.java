package dev.veracity.methods.baseline;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.text.ReasoningBlocks;
import java.util.List;
import java.util.Optional;

/**
 * Reads the short answer out of a model's reply, after reasoning blocks are removed. Total and linear-time: any text
 * gives an answer or an empty Optional, never an exception.
 */
public final class ShortAnswer {

    private ShortAnswer() {
    }

    /**
     * The text after the last "Answer:" line ("Answer:", "Final Answer:", bold allowed, at the start of a line; a
     * model may restate its reasoning first), cleaned; empty when there is none or it is blank.
     */
    public static Optional<String> afterAnswerLine(String text) {
        String t = ReasoningBlocks.strip(text);
        String last = null;
        for (int line = 0; line <= t.length(); ) {
            int eol = t.indexOf('\n', line);
            int end = eol < 0 ? t.length() : eol;
            int body = answerLineBody(t, line, end);
            if (body >= 0) {
                last = t.substring(body, end);
            }
            line = end + 1;
        }
        return Optional.ofNullable(last).map(ShortAnswer::clean).filter(s -> !s.isEmpty());
    }

    /** Where the answer of an "Answer:" line in {@code t[start, end)} begins, or -1 when the line is not one. */
    private static int answerLineBody(String t, int start, int end) {
        int p = skip(t, start, end, " \t\r*");
        if (t.regionMatches(true, p, "final", 0, 5)) {
            p = skip(t, p + 5, end, " \t");
        }
        if (!t.regionMatches(true, p, "answer", 0, 6)) {
            return -1;
        }
        p = skip(t, p + 6, end, " \t*");
        if (p >= end || (t.charAt(p) != ':' && t.charAt(p) != '\uFF1A')) {
            return -1;
        }
        return p + 1;
    }

    private static int skip(String t, int p, int end, String chars) {
        while (p < end && chars.indexOf(t.charAt(p)) >= 0) {
            p++;
        }
        return p;
    }

    /**
     * A direct answer ("Paris", "Answer: Paris", "Paris.\nBecause ..."): the answer line if there is one, else the
     * first non-blank line.
     */
    static String direct(String text) {
        Optional<String> marked = afterAnswerLine(text);
        if (marked.isPresent()) {
            return marked.get();
        }
        String t = ReasoningBlocks.strip(text);
        for (int line = 0; line < t.length(); ) {
            int eol = t.indexOf('\n', line);
            int end = eol < 0 ? t.length() : eol;
            String c = clean(t.substring(line, end));
            if (!c.isEmpty()) {
                return c;
            }
            line = end + 1;
        }
        return "";
    }

    /** A short-answer method's answer: {@link #direct} as the prediction, the raw output kept, empty = failure. */
    static MethodAnswer answer(String out) {
        String a = direct(out);
        return new MethodAnswer(a, a.isEmpty() ? List.of() : List.of(a),
                a.isEmpty() ? List.of("empty answer: '" + out + "'") : List.of()).withRaw(out);
    }

    /** Flags the sample in the response cache when the answer read from it recorded a parse failure. */
    static MethodAnswer markIfUnparsed(MethodContext ctx, LlmRequest request, Completion sample, MethodAnswer answer) {
        if (!answer.parseFailures().isEmpty()) {
            ctx.llm().markUnparseable(request, sample, answer.parseFailures().getFirst());
        }
        return answer;
    }

    /** Strips markdown emphasis, one trailing period (outside or inside quotes) and surrounding quotes. */
    public static String clean(String s) {
        String c = dropPeriod(s.strip().replace("**", "").strip());
        if (c.length() >= 2 && (c.startsWith("\"") && c.endsWith("\"") || c.startsWith("'") && c.endsWith("'"))) {
            c = dropPeriod(c.substring(1, c.length() - 1).strip());
        }
        return c;
    }

    private static String dropPeriod(String c) {
        return c.endsWith(".") && !c.endsWith("..") ? c.substring(0, c.length() - 1).strip() : c;
    }
}
