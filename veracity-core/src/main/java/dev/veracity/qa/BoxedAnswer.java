package dev.veracity.qa;

import dev.veracity.text.ReasoningBlocks;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The final answer a response puts in {@code \boxed{...}} (TruthRL's answer format, Tables 9 and 10).
 *
 * <p>{@link Mode#LAST} (the default) and {@link Mode#FIRST} read the response without its reasoning blocks (a box
 * inside {@code <think>} is a draft, not the answer), accept {@code \boxed{x}}, {@code \boxed {x}} and
 * {@code \fbox{x}}, match braces ({@code \{} and {@code \}} are literal braces and do not count), skip a box that is
 * never closed, and unwrap whole-content {@code \text{}}, {@code \textbf{}}, {@code \mathrm{}}, {@code \mbox{}} and
 * nested boxes. A box with blank content is no answer. LAST is the default because a response that boxes more than
 * once (a candidate, then a correction) states its answer last; graders of boxed answers (VeRL's
 * {@code last_boxed_only_string}, math-verify) read the last box for the same reason.
 *
 * <p>{@link Mode#AUTHORS} is TruthRL's own extraction, kept for comparison: the first non-greedy
 * {@code \\boxed{(.*?)}} over the whole response, reasoning included, which cuts {@code \boxed{\text{Paris}}} at the
 * first closing brace.
 *
 * <p>Linear time: every brace's partner is found in one pass, so 10k nested or 100k unclosed boxes are read once.
 */
public final class BoxedAnswer {

    /** Which box a response's answer is. */
    public enum Mode { LAST, FIRST, AUTHORS }

    public static final Mode DEFAULT = Mode.LAST;

    private static final List<String> BOXES = List.of("\\boxed", "\\fbox");
    private static final List<String> WRAPPERS = List.of("\\text{", "\\textbf{", "\\mathrm{", "\\mbox{", "\\boxed{",
            "\\fbox{");

    private BoxedAnswer() {
    }

    /** The answer in the last box outside reasoning blocks. */
    public static Optional<String> extract(String text) {
        return extract(text, DEFAULT);
    }

    public static Optional<String> extract(String text, Mode mode) {
        if (text == null) {
            return Optional.empty();
        }
        if (mode == Mode.AUTHORS) {
            return authors(text);
        }
        String t = ReasoningBlocks.strip(text);
        int[] close = closes(t);
        String found = null;
        int coveredUntil = -1; // boxes inside an accepted box are its content, not further answers
        for (int i = t.indexOf('\\'); i >= 0; i = t.indexOf('\\', i + 1)) {
            if (i <= coveredUntil) {
                continue;
            }
            int open = boxOpen(t, i);
            if (open < 0 || close[open] < 0) {
                continue;
            }
            String content = unwrap(t, open + 1, close[open], close);
            coveredUntil = close[open];
            if (content.isBlank()) {
                continue;
            }
            found = content;
            if (mode == Mode.FIRST) {
                break;
            }
        }
        return Optional.ofNullable(found);
    }

    /** {@code re.search(r'\\boxed{(.*?)}', text, re.DOTALL).group(1).strip()}, as TruthRL's evaluation does. */
    private static Optional<String> authors(String text) {
        int start = text.indexOf("\\boxed{");
        if (start < 0) {
            return Optional.empty();
        }
        int from = start + "\\boxed{".length();
        int end = text.indexOf('}', from);
        return end < 0 ? Optional.empty() : Optional.of(text.substring(from, end).strip());
    }

    /** The index of the '{' opening a box whose name starts at {@code i}, else -1. */
    private static int boxOpen(String t, int i) {
        for (String box : BOXES) {
            if (t.startsWith(box, i)) {
                int j = i + box.length();
                while (j < t.length() && (t.charAt(j) == ' ' || t.charAt(j) == '\t')) {
                    j++;
                }
                return j < t.length() && t.charAt(j) == '{' ? j : -1;
            }
        }
        return -1;
    }

    /** The content between {@code lo} and {@code hi} with whole-content wrappers peeled off, stripped. */
    private static String unwrap(String s, int lo, int hi, int[] close) {
        boolean changed = true;
        while (changed) {
            changed = false;
            while (lo < hi && Character.isWhitespace(s.charAt(lo))) {
                lo++;
            }
            while (hi > lo && Character.isWhitespace(s.charAt(hi - 1))) {
                hi--;
            }
            for (String w : WRAPPERS) {
                int open = lo + w.length() - 1;
                if (hi - lo >= w.length() && s.startsWith(w, lo) && close[open] == hi - 1) {
                    lo = open + 1;
                    hi--;
                    changed = true;
                    break;
                }
            }
        }
        return s.substring(lo, hi);
    }

    /** For each '{' of {@code t}, the index of its '}', else -1. */
    private static int[] closes(String t) {
        int[] close = new int[t.length()];
        Arrays.fill(close, -1);
        int[] stack = new int[t.length()];
        int depth = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '\\' && i + 1 < t.length() && (t.charAt(i + 1) == '{' || t.charAt(i + 1) == '}')) {
                i++;
            } else if (c == '{') {
                stack[depth++] = i;
            } else if (c == '}' && depth > 0) {
                close[stack[--depth]] = i;
            }
        }
        return close;
    }
}
