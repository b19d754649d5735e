package dev.veracity.eval.metrics;

import java.util.List;
import java.util.Optional;

/**
 * Extracts the final answer from {@code \boxed{...}}. TruthRL's code takes the first non-greedy
 * {@code \boxed{(.*?)}}, which cuts {@code \boxed{\text{Paris}}} at the first {@code }}; this reads the first box
 * with balanced braces instead ({@code \{} and {@code \}} are literal braces and do not count), then unwraps a
 * whole-content {@code \text{...}}, {@code \textbf{...}}, {@code \mathrm{...}} or {@code \mbox{...}}.
 * A box that is never closed counts as no box.
 */
public final class BoxedAnswer {

    private static final String OPEN = "\\boxed{";
    private static final List<String> WRAPPERS = List.of("\\text{", "\\textbf{", "\\mathrm{", "\\mbox{");

    private BoxedAnswer() {}

    public static Optional<String> extract(String text) {
        if (text == null) return Optional.empty();
        int start = text.indexOf(OPEN);
        if (start < 0) return Optional.empty();
        int contentStart = start + OPEN.length();
        int end = matchingClose(text, contentStart);
        if (end < 0) return Optional.empty();
        return Optional.of(unwrap(text.substring(contentStart, end).strip()));
    }

    /** Index of the {@code }} closing a group whose content starts at {@code from}, or -1. */
    private static int matchingClose(String t, int from) {
        int depth = 1;
        for (int i = from; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '\\' && i + 1 < t.length() && (t.charAt(i + 1) == '{' || t.charAt(i + 1) == '}')) {
                i++;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Unwraps whole-content wrappers, innermost last. Linear time: the closing brace of every '{' is found in one
     * pass, and the wrappers are peeled by moving two indices, so 10k nested wrappers are not rescanned and copied
     * 10k times.
     */
    private static String unwrap(String s) {
        int[] close = closes(s);
        int lo = 0;
        int hi = s.length();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (String w : WRAPPERS) {
                int open = lo + w.length() - 1;
                if (hi - lo >= w.length() && s.startsWith(w, lo) && close[open] == hi - 1) {
                    lo = open + 1;
                    hi--;
                    while (lo < hi && Character.isWhitespace(s.charAt(lo))) lo++;
                    while (hi > lo && Character.isWhitespace(s.charAt(hi - 1))) hi--;
                    changed = true;
                }
            }
        }
        return s.substring(lo, hi);
    }

    /**
     * For each '{' of {@code t}, the index of its '}', else -1 (as {@link #matchingClose} from the brace, which a
     * wrapper's '{' always reaches in step: it follows a letter, never a backslash).
     */
    private static int[] closes(String t) {
        int[] close = new int[t.length()];
        java.util.Arrays.fill(close, -1);
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
