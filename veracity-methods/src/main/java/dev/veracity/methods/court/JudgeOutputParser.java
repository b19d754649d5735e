package dev.veracity.methods.court;

import dev.veracity.retrieval.react.ActionParser;
import dev.veracity.text.ReasoningBlocks;

/**
 * Reads the judge's {@code Complete[answer]} (Appendix B.3: "Action: Complete[&lt;short final answer&gt;]"). Total and
 * linear-time: any string gives a {@link JudgeVerdict}, never an exception. The last {@code Complete[...]} with an
 * answer wins (a judge may quote an agent's or the format's before its own verdict); the prompt's placeholders
 * echoed back ({@code <short final answer>}, {@code <final answer>}) are no answer. Case, emphasis, backticks, quotes
 * around the answer, reasoning blocks and nested brackets are accepted; brackets are matched per line with a stack,
 * so a line of ten thousand unclosed {@code Complete[} costs one pass.
 */
public final class JudgeOutputParser {

    private static final String WORD = "complete";

    private JudgeOutputParser() {
    }

    public static JudgeVerdict parse(String output) {
        String t = output == null ? "" : ReasoningBlocks.strip(output);
        String answer = null;
        boolean sawEmpty = false;
        boolean sawUnclosed = false;
        int n = t.length();
        int[] stack = new int[16];
        for (int line = 0; line < n; ) {
            int eol = t.indexOf('\n', line);
            int end = eol < 0 ? n : eol;
            // match this line's brackets once: close[open - line] = its ']' or -1
            int[] close = null;
            int depth = 0;
            for (int i = line; i < end; i++) {
                char c = t.charAt(i);
                if (c == '[') {
                    if (close == null) {
                        close = new int[end - line];
                        java.util.Arrays.fill(close, -1);
                    }
                    if (depth == stack.length) {
                        stack = java.util.Arrays.copyOf(stack, depth * 2);
                    }
                    stack[depth++] = i;
                } else if (c == ']' && depth > 0) {
                    close[stack[--depth] - line] = i;
                }
            }
            if (close != null) {
                for (int i = line; i + WORD.length() < end; i++) {
                    if (!t.regionMatches(true, i, WORD, 0, WORD.length())) {
                        continue;
                    }
                    int b = i + WORD.length();
                    while (b < end && (t.charAt(b) == ' ' || t.charAt(b) == '*' || t.charAt(b) == '`')) {
                        b++;
                    }
                    if (b >= end || t.charAt(b) != '[') {
                        continue;
                    }
                    int c = close[b - line];
                    if (c < 0) {
                        sawUnclosed = true;
                        continue;
                    }
                    String a = ActionParser.cleanArgument(t.substring(b + 1, c));
                    if (a.isEmpty() || isPlaceholder(a)) {
                        sawEmpty = true;
                    } else {
                        answer = a;
                    }
                }
            }
            line = end + 1;
        }
        if (answer != null) {
            return new JudgeVerdict.Complete(answer);
        }
        JudgeVerdict.Failure f = sawUnclosed ? JudgeVerdict.Failure.UNCLOSED_BRACKET
                : sawEmpty ? JudgeVerdict.Failure.EMPTY_ANSWER : JudgeVerdict.Failure.NO_COMPLETE;
        return new JudgeVerdict.Failed(f, output == null ? "" : output.strip());
    }

    private static boolean isPlaceholder(String a) {
        return a.startsWith("<") && a.endsWith(">");
    }
}
