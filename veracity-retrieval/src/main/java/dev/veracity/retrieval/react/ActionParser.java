package dev.veracity.retrieval.react;

import dev.veracity.text.ReasoningBlocks;

/**
 * Reads a ReAct agent's turn, the text a model writes after {@code "Thought i:"}: a thought, then an action line.
 * Total and linear-time: any string gives an {@link AgentTurn}, never an exception; every character is looked at a
 * bounded number of times (no regex).
 *
 * <p>The first action line wins (a model that ignores the stop sequence goes on with an invented
 * {@code Observation}, which is dropped). An action line is {@code Action i: Verb[argument]} or, without the label,
 * a line that starts with {@code Verb[}; around them models write markdown emphasis ({@code **Action 1:**}), list
 * markers, backticks, quotes around the argument, a space before the bracket, any letter case, and reasoning blocks
 * ({@code <think>...</think>}), all accepted. The argument runs to the matching {@code ]} (nested brackets kept:
 * {@code Finish[1,800 ft [550 m]]}); a bracket not closed on its line is {@link ActionFailure#UNCLOSED_BRACKET}, so an
 * output cut off mid-answer is not taken for a finished one. ReAct itself split on {@code "\nAction i: "} and
 * required the exact {@code verb[...]} shape; we accept the variations above (a looser reading, declared here).
 * {@code Finish[]} is an empty answer, as in ReAct; {@code Search[]} and {@code Lookup[]} are failures.
 *
 * <p>The one ReAct action parser: Reasoning Court's agents and {@link WikiEnvironment#step(String)} both read actions
 * with it, so a text means the same action to the agent's scratchpad and to the environment.
 */
public final class ActionParser {

    private ActionParser() {
    }

    public static AgentTurn parse(String output) {
        String t = output == null ? "" : ReasoningBlocks.strip(output);
        if (t.isBlank()) {
            return new AgentTurn.Failed("", ActionFailure.EMPTY_OUTPUT, output == null ? "" : output.strip());
        }
        int n = t.length();
        StringBuilder thought = new StringBuilder();
        AgentTurn.Failed labelledFailure = null;
        for (int line = 0; line < n; ) {
            int eol = t.indexOf('\n', line);
            int end = eol < 0 ? n : eol;
            int p = skipDecoration(t, line, end);
            int afterLabel = actionLabel(t, p, end);
            int verbAt = afterLabel >= 0 ? skipDecoration(t, afterLabel, end) : p;
            // the thought so far is built only for a turn that is returned: once per line it would be quadratic
            AgentTurn turn = action(t, verbAt, end, () -> oneLine(thought));
            if (turn != null) {
                return turn;
            }
            if (afterLabel < 0) {
                // "Thought 2: ... Action 2: Search[x]" written on one line
                int mid = midLineLabel(t, p + 1, end);
                if (mid >= 0) {
                    turn = action(t, skipDecoration(t, mid, end), end, () -> {
                        StringBuilder before = new StringBuilder(thought);
                        appendThought(before, t, p, labelStart(t, p + 1, end));
                        return oneLine(before);
                    });
                    if (turn != null) {
                        return turn;
                    }
                }
            }
            if (afterLabel >= 0 && labelledFailure == null) {
                labelledFailure = new AgentTurn.Failed(oneLine(thought), ActionFailure.UNKNOWN_ACTION,
                        t.substring(line, end).strip());
            } else if (afterLabel < 0 && labelledFailure == null && !isObservation(t, p, end)) {
                appendThought(thought, t, p, end);
            }
            line = end + 1;
        }
        if (labelledFailure != null) {
            return labelledFailure;
        }
        String th = oneLine(thought);
        return new AgentTurn.Failed(th, ActionFailure.NO_ACTION, t.strip());
    }

    /** The action at {@code p} ({@code Verb[arg]}), a failure for a recognised verb with a bad argument, or null. */
    private static AgentTurn action(String t, int p, int end, java.util.function.Supplier<String> thoughtSoFar) {
        String verb = null;
        for (String v : new String[] {"search", "lookup", "finish"}) {
            if (t.regionMatches(true, p, v, 0, v.length())) {
                verb = v;
                break;
            }
        }
        if (verb == null) {
            return null;
        }
        int b = p + verb.length();
        while (b < end && (t.charAt(b) == ' ' || t.charAt(b) == '\t')) {
            b++;
        }
        if (b >= end || t.charAt(b) != '[') {
            return null;
        }
        String thought = thoughtSoFar.get();
        int depth = 0;
        int close = -1;
        for (int i = b; i < end; i++) {
            char c = t.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                close = i;
                break;
            }
        }
        if (close < 0) {
            return new AgentTurn.Failed(thought, ActionFailure.UNCLOSED_BRACKET, t.substring(p, end).strip());
        }
        String arg = cleanArgument(t.substring(b + 1, close));
        return switch (verb) {
            case "search" -> arg.isEmpty() ? new AgentTurn.Failed(thought, ActionFailure.EMPTY_ARGUMENT,
                    t.substring(p, close + 1)) : new AgentTurn.Acted(thought, new ReactAction.Search(arg));
            case "lookup" -> arg.isEmpty() ? new AgentTurn.Failed(thought, ActionFailure.EMPTY_ARGUMENT,
                    t.substring(p, close + 1)) : new AgentTurn.Acted(thought, new ReactAction.Lookup(arg));
            default -> new AgentTurn.Acted(thought, new ReactAction.Finish(arg));
        };
    }

    /** Where the text after an {@code Action i:} label starts, or -1 when the line has none at {@code p}. */
    private static int actionLabel(String t, int p, int end) {
        if (!t.regionMatches(true, p, "action", 0, 6)) {
            return -1;
        }
        int i = p + 6;
        while (i < end && (t.charAt(i) == ' ' || Character.isDigit(t.charAt(i)))) {
            i++;
        }
        while (i < end && t.charAt(i) == '*') {
            i++;
        }
        if (i >= end || t.charAt(i) != ':') {
            return -1;
        }
        return i + 1;
    }

    /** Where the text after the first "Action i:" label inside {@code [from, end)} starts, or -1. */
    private static int midLineLabel(String t, int from, int end) {
        int at = labelStart(t, from, end);
        return at < 0 ? -1 : actionLabel(t, at, end);
    }

    /** The first position in {@code [from, end)} where an "Action i:" label starts, or -1. */
    private static int labelStart(String t, int from, int end) {
        for (int i = from; i + 6 < end; i++) {
            char c = t.charAt(i);
            if ((c == 'a' || c == 'A') && actionLabel(t, i, end) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the line is an "Observation i:" line (a model inventing the environment's answer). */
    private static boolean isObservation(String t, int p, int end) {
        if (!t.regionMatches(true, p, "observation", 0, 11)) {
            return false;
        }
        int i = p + 11;
        while (i < end && (t.charAt(i) == ' ' || Character.isDigit(t.charAt(i)) || t.charAt(i) == '*')) {
            i++;
        }
        return i < end && t.charAt(i) == ':';
    }

    /** Skips white space and markdown around a line's start: emphasis, list bullets, numbering, quotes, backticks. */
    private static int skipDecoration(String t, int p, int end) {
        while (p < end) {
            char c = t.charAt(p);
            if (c == ' ' || c == '\t' || c == '\r' || c == '*' || c == '_' || c == '`' || c == '>' || c == '#'
                    || c == '-' || c == '\u2022') {
                p++;
            } else if (Character.isDigit(c)) {
                int q = p;
                while (q < end && Character.isDigit(t.charAt(q))) {
                    q++;
                }
                if (q < end && (t.charAt(q) == '.' || t.charAt(q) == ')') && q + 1 < end && t.charAt(q + 1) == ' ') {
                    p = q + 1; // "1. Search[...]"
                } else {
                    return p;
                }
            } else {
                return p;
            }
        }
        return p;
    }

    /** Adds a thought line, without its "Thought i:" label. */
    private static void appendThought(StringBuilder thought, String t, int p, int end) {
        int q = p;
        if (t.regionMatches(true, q, "thought", 0, 7)) {
            int i = q + 7;
            while (i < end && (t.charAt(i) == ' ' || Character.isDigit(t.charAt(i)) || t.charAt(i) == '*')) {
                i++;
            }
            if (i < end && t.charAt(i) == ':') {
                q = i + 1;
                while (q < end && (t.charAt(q) == '*' || t.charAt(q) == ' ')) {
                    q++;
                }
            }
        }
        String s = t.substring(q, end).strip();
        if (!s.isEmpty()) {
            if (!thought.isEmpty()) {
                thought.append(' ');
            }
            thought.append(s);
        }
    }

    private static String oneLine(StringBuilder sb) {
        return sb.toString().strip();
    }

    /** The argument without surrounding emphasis, backticks or quotes (also the judge's {@code Complete[...]}). */
    public static String cleanArgument(String raw) {
        String a = raw.strip();
        int lo = 0;
        int hi = a.length();
        while (hi - lo >= 4 && a.startsWith("**", lo) && a.startsWith("**", hi - 2)) {
            lo += 2;
            hi -= 2;
        }
        return unquote(a.substring(lo, hi).strip());
    }

    /** Strips matching quotes (and the white space inside them) by moving two indices: linear time. */
    public static String unquote(String s) {
        int lo = 0;
        int hi = s.length();
        while (hi - lo >= 2) {
            char a = s.charAt(lo);
            char b = s.charAt(hi - 1);
            if ((a == '"' && b == '"') || (a == '\'' && b == '\'') || (a == '`' && b == '`')
                    || (a == '\u201c' && b == '\u201d') || (a == '\u2018' && b == '\u2019')) {
                lo++;
                hi--;
                while (lo < hi && Character.isWhitespace(s.charAt(lo))) {
                    lo++;
                }
                while (hi > lo && Character.isWhitespace(s.charAt(hi - 1))) {
                    hi--;
                }
            } else {
                break;
            }
        }
        return s.substring(lo, hi);
    }

    /** The action as the scratchpad shows it: {@code Search[entity]}, {@code Lookup[x]}, {@code Finish[answer]}. */
    public static String render(ReactAction action) {
        return switch (action) {
            case ReactAction.Search s -> "Search[" + s.entity() + "]";
            case ReactAction.Lookup l -> "Lookup[" + l.keyword() + "]";
            case ReactAction.Finish f -> "Finish[" + f.answer() + "]";
            case ReactAction.Invalid i -> i.text();
        };
    }
}
