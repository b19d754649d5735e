package dev.veracity.examples.citecheck;

import dev.veracity.text.ReasoningBlocks;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a reply to cite-check's prompt says: an answer with the passages it cites, "unknown", or a reason it cannot be
 * read. The parser is total and linear: any string gives one of the three, never an exception.
 *
 * <p>It reads the first {@code Answer:} line outside reasoning blocks ({@code <think>...</think>}), tolerating what
 * models add around the format (markdown bold, a list bullet, quotes), and the first {@code Evidence:} line after it.
 * Numbers are read from the evidence line only, so a passage number in the answer's own text is never a citation.
 */
public sealed interface CitedAnswer {

    /** An answer citing these passages (1-based, in the order written, without repeats; empty when none cited). */
    record Cited(String answer, List<Integer> passages) implements CitedAnswer {
        public Cited {
            passages = List.copyOf(passages);
        }
    }

    /** The model said no passage states the answer. */
    record Unknown() implements CitedAnswer {
    }

    /** The reply has no {@code Answer:} line, or an empty one. */
    record Unreadable(String reason) implements CitedAnswer {
    }

    /** Reads one reply. */
    static CitedAnswer parse(String reply) {
        String text = ReasoningBlocks.strip(reply == null ? "" : reply);
        String answer = null;
        String evidence = null;
        for (String line : text.split("\n", -1)) {
            String body = unwrap(line);
            if (answer == null) {
                String a = after(body, "answer:");
                if (a != null) {
                    answer = unquote(a);
                }
            } else if (evidence == null) {
                evidence = after(body, "evidence:");
                if (evidence != null) {
                    break;
                }
            }
        }
        if (answer == null) {
            return new Unreadable("no \"Answer:\" line");
        }
        if (answer.isEmpty()) {
            return new Unreadable("an empty \"Answer:\" line");
        }
        if (answer.equalsIgnoreCase("unknown")) {
            return new Unknown();
        }
        return new Cited(answer, evidence == null ? List.of() : numbers(evidence));
    }

    /** The line without leading markdown: spaces, bullets ({@code -}, {@code *}, {@code >}) and bold markers. */
    private static String unwrap(String line) {
        int i = 0;
        while (i < line.length() && " \t-*>#".indexOf(line.charAt(i)) >= 0) {
            i++;
        }
        return line.substring(i).replace("**", "").strip();
    }

    /** What follows {@code label} (any case) at the start of {@code line}, stripped; null when it does not start so. */
    private static String after(String line, String label) {
        return line.regionMatches(true, 0, label, 0, label.length()) ? line.substring(label.length()).strip() : null;
    }

    private static String unquote(String s) {
        String t = s.strip();
        while (t.length() >= 2 && "\"'`".indexOf(t.charAt(0)) >= 0 && t.charAt(t.length() - 1) == t.charAt(0)) {
            t = t.substring(1, t.length() - 1).strip();
        }
        if (t.endsWith(".")) {
            t = t.substring(0, t.length() - 1).strip();
        }
        return t;
    }

    /** Every run of digits in the evidence line, once each, in order (at most 9 digits: no overflow). */
    private static List<Integer> numbers(String evidence) {
        Set<Integer> out = new LinkedHashSet<>();
        int i = 0;
        while (i < evidence.length()) {
            if (digit(evidence.charAt(i))) {
                int start = i;
                while (i < evidence.length() && digit(evidence.charAt(i))) {
                    i++;
                }
                if (i - start <= 9) {
                    int n = Integer.parseInt(evidence, start, i, 10);
                    if (n > 0) {
                        out.add(n);
                    }
                }
            } else {
                i++;
            }
        }
        return List.copyOf(out);
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }
}
