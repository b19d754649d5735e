package dev.veracity.methods.c3po;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Information Filter's output (Appendix B.1): {@code Thought: ... Action: [1, 2]}, 1-based ids of the retrieved
 * documents to keep, read as the authors do: a non-empty thought, the first bracket pair after the last
 * {@code Action:}, its text split on commas, empty pieces skipped, each piece an integer, duplicates dropped in
 * order. {@code []} keeps nothing (the transition then stores "None relevant information about {query}").
 *
 * <p>An id outside 1..n: when collecting training data the authors refuse the whole output ("Hallucinate Document
 * Idx", {@code strict}); at test time they drop the id and keep the others.
 */
public final class FilterParser {

    /** Python's {@code int()} takes any number of digits; an id past this is out of range anyway. */
    private static final long TOO_BIG = 1_000_000_000L;

    /**
     * A selection.
     *
     * @param thought the analysis before the action
     * @param ids     the kept documents, 1-based, in the order given, without duplicates
     * @param dropped ids outside 1..n that were dropped (test-time rule), in the order given
     */
    public record Selection(String thought, List<Integer> ids, List<Integer> dropped) {

        public Selection {
            ids = List.copyOf(ids);
            dropped = List.copyOf(dropped);
        }

        /** The action as the filter writes it. */
        public String action() {
            return ids.toString();
        }
    }

    private FilterParser() {
    }

    /**
     * Total and linear.
     *
     * @param documents the number of retrieved documents the filter saw
     * @param strict    refuse an out-of-range id (the authors' data collection) instead of dropping it (their test)
     */
    public static Parsed<Selection> parse(String output, int documents, boolean strict) {
        String s = output == null ? "" : output;
        ActionText.ThoughtAction ta = ActionText.thoughtAction(s);
        if (ta == null) {
            return fail(ParseFailure.Kind.NO_ACTION_MARKER, ParseFailure.excerpt(s));
        }
        if (ta.thought().isEmpty()) {
            return fail(ParseFailure.Kind.NO_THOUGHT, "");
        }
        ActionText.Bracket b = ActionText.firstBracket(ta.action());
        if (b == null) {
            return fail(ParseFailure.Kind.NO_ACTION, ParseFailure.excerpt(ta.action()));
        }
        Set<Integer> kept = new LinkedHashSet<>();
        List<Integer> dropped = new ArrayList<>();
        for (String piece : ActionText.commaSplit(b.inside())) {
            String p = ActionText.strip(piece);
            if (p.isEmpty()) {
                continue;
            }
            Long id = integer(p);
            if (id == null) {
                return fail(ParseFailure.Kind.BAD_INDEX, "'" + ParseFailure.excerpt(p) + "'");
            }
            if (id >= 1 && id <= documents) {
                kept.add(id.intValue());
            } else if (strict) {
                return fail(ParseFailure.Kind.HALLUCINATED_INDEX, id + " of " + documents);
            } else {
                dropped.add(id > Integer.MAX_VALUE ? Integer.MAX_VALUE : id < Integer.MIN_VALUE ? Integer.MIN_VALUE
                        : id.intValue());
            }
        }
        return Parsed.ok(new Selection(ta.thought(), new ArrayList<>(kept), dropped));
    }

    /** Python's {@code int(str)} for what a filter writes: an optional sign, ASCII digits, '_' between digits. */
    private static Long integer(String p) {
        int i = 0;
        boolean negative = false;
        if (p.charAt(0) == '+' || p.charAt(0) == '-') {
            negative = p.charAt(0) == '-';
            i = 1;
        }
        long v = 0;
        boolean digit = false;
        boolean underscore = false;
        for (; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '_') {
                if (!digit || underscore) {
                    return null;
                }
                underscore = true;
                continue;
            }
            if (c < '0' || c > '9') {
                return null;
            }
            digit = true;
            underscore = false;
            if (v <= TOO_BIG) {
                v = v * 10 + (c - '0'); // past TOO_BIG the id is out of every range: stop growing, stay finite
            }
        }
        if (!digit || underscore) {
            return null;
        }
        return negative ? -v : v;
    }

    private static Parsed<Selection> fail(ParseFailure.Kind kind, String detail) {
        return Parsed.failed(new ParseFailure(Agent.FILTER, kind, detail));
    }
}
