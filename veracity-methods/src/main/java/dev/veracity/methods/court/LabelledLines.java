package dev.veracity.methods.court;

import dev.veracity.text.ReasoningBlocks;
import java.util.Optional;

/**
 * Reads the value of the last {@code Label: value} line of a model output, for our prompts' one-line verdicts
 * (self-refine's {@code Verdict:}, MAD's {@code Preference:} and {@code Supported Side:}) and B.5's {@code [[k]]}.
 * Total and linear-time: reasoning blocks removed, emphasis and list markers before the label, emphasis after it and
 * a trailing period are ignored.
 */
final class LabelledLines {

    private LabelledLines() {
    }

    /** The value of the last line labelled {@code label} (case-insensitive), lower case, trimmed; empty when none. */
    static Optional<String> last(String output, String label) {
        String t = output == null ? "" : ReasoningBlocks.strip(output);
        String found = null;
        int n = t.length();
        for (int line = 0; line < n; ) {
            int eol = t.indexOf('\n', line);
            int end = eol < 0 ? n : eol;
            int p = line;
            while (p < end && " \t*_#>-`".indexOf(t.charAt(p)) >= 0) {
                p++;
            }
            if (t.regionMatches(true, p, label, 0, label.length())) {
                int q = p + label.length();
                while (q < end && (t.charAt(q) == '*' || t.charAt(q) == ' ')) {
                    q++;
                }
                if (q < end && t.charAt(q) == ':') {
                    String v = t.substring(q + 1, end).replace("*", "").replace("`", "").strip();
                    while (v.endsWith(".")) {
                        v = v.substring(0, v.length() - 1).strip();
                    }
                    found = v.toLowerCase(java.util.Locale.ROOT);
                }
            }
            line = end + 1;
        }
        return Optional.ofNullable(found).filter(v -> !v.isEmpty());
    }

    /** The number {@code k} of the last {@code [[k]]} in the output with 1 <= k <= max, or empty. */
    static Optional<Integer> lastVerdict(String output, int max) {
        String t = output == null ? "" : ReasoningBlocks.strip(output);
        Integer found = null;
        for (int i = t.indexOf("[["); i >= 0; i = t.indexOf("[[", i + 2)) {
            int j = i + 2;
            while (j < t.length() && j - i < 8 && Character.isDigit(t.charAt(j))) {
                j++;
            }
            if (j > i + 2 && t.startsWith("]]", j)) {
                int k = Integer.parseInt(t.substring(i + 2, j));
                if (k >= 1 && k <= max) {
                    found = k;
                }
            }
        }
        return Optional.ofNullable(found);
    }
}
