package dev.veracity.methods.c3po;

import java.util.ArrayList;
import java.util.List;

/**
 * The pieces of the authors' output formats, read in one pass each (no backtracking regex over model output):
 * the first {@code [...]} and what follows it (their {@code \[(.*?)\](.*)} with DOTALL), the Thought/Action split,
 * Python's {@code strip()} and {@code split()} whitespace, and their 100-word query cut.
 */
final class ActionText {

    /** The authors' {@code max_query_length}: a query keeps its first 100 words. */
    static final int MAX_QUERY_WORDS = 100;

    /** The first bracket pair and the text after it. */
    record Bracket(String inside, String after) {
    }

    /** The thought before the action marker and the action text after it. */
    record ThoughtAction(String thought, String action) {
    }

    private ActionText() {
    }

    /**
     * {@code \[(.*?)\](.*)} searched with DOTALL: the first '[' and the first ']' after it; both parts stripped as
     * Python does. Null when there is no such pair.
     */
    static Bracket firstBracket(String s) {
        int open = s.indexOf('[');
        if (open < 0) {
            return null;
        }
        int close = s.indexOf(']', open + 1);
        if (close < 0) {
            return null;
        }
        return new Bracket(strip(s.substring(open + 1, close)), strip(s.substring(close + 1)));
    }

    /**
     * The thought and the action of a "Thought: ... Action: ..." output: the action is what follows the LAST
     * {@code Action:} (the authors' regex takes the first, so a thought that quotes a document containing
     * "Action: [LLM]" would be read as that action), the thought what precedes it without a leading
     * {@code Thought:}. Null when there is no {@code Action:}.
     */
    static ThoughtAction thoughtAction(String s) {
        int at = s.lastIndexOf("Action:");
        if (at < 0) {
            return null;
        }
        String thought = strip(s.substring(0, at));
        if (thought.startsWith("Thought:")) {
            thought = strip(thought.substring("Thought:".length()));
        }
        return new ThoughtAction(thought, strip(s.substring(at + "Action:".length())));
    }

    /** The first {@code max} whitespace-separated words joined by one space (the authors' query cut). */
    static String words(String s, int max) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), 4096));
        int n = 0;
        int i = 0;
        int len = s.length();
        while (i < len && n < max) {
            while (i < len && space(s.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < len && !space(s.charAt(i))) {
                i++;
            }
            if (i > start) {
                if (n > 0) {
                    out.append(' ');
                }
                out.append(s, start, i);
                n++;
            }
        }
        return out.toString();
    }

    /** Python's {@code str.split(',')}. */
    static List<String> commaSplit(String s) {
        List<String> out = new ArrayList<>();
        int from = 0;
        while (true) {
            int c = s.indexOf(',', from);
            if (c < 0) {
                out.add(s.substring(from));
                return out;
            }
            out.add(s.substring(from, c));
            from = c + 1;
        }
    }

    /** Python's {@code str.strip()}: Unicode whitespace, NBSP included. */
    static String strip(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && space(s.charAt(a))) {
            a++;
        }
        while (b > a && space(s.charAt(b - 1))) {
            b--;
        }
        return s.substring(a, b);
    }

    static boolean space(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u001C' || c == '\u001D'
                || c == '\u001E' || c == '\u001F' || c == '\u0085';
    }
}
