package dev.veracity.methods.c3po;

/**
 * The Decision Maker's output (Appendix B.1): {@code Thought: ... Action: [Retrieval] subquery} or
 * {@code Action: [LLM]}. The thought must not be empty (the authors' "Without Thought" rule); the action is the first
 * bracket pair after the last {@code Action:}, {@code Retrieval} or {@code LLM} exactly; the subquery is cut to 100
 * words and must not be empty. The thought becomes the filter's "current step's objectives" (B.2, eq. 14).
 */
public final class DecisionParser {

    /**
     * A decision.
     *
     * @param thought  the analysis before the action (the next filter's objective)
     * @param retrieve true for {@code [Retrieval] query}, false for {@code [LLM]}
     * @param query    the subquery ("" for [LLM])
     */
    public record Decision(String thought, boolean retrieve, String query) {

        /** The action as the Decision Maker writes it. */
        public String action() {
            return retrieve ? "[Retrieval] " + query : "[LLM]";
        }
    }

    private DecisionParser() {
    }

    /** Total and linear: a decision, or the failure of this output. */
    public static Parsed<Decision> parse(String output) {
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
        if (b.inside().equals("LLM")) {
            return Parsed.ok(new Decision(ta.thought(), false, ""));
        }
        if (!b.inside().equals("Retrieval")) {
            return fail(ParseFailure.Kind.UNKNOWN_ACTION, "[" + ParseFailure.excerpt(b.inside()) + "]");
        }
        String query = ActionText.words(b.after(), ActionText.MAX_QUERY_WORDS);
        if (query.isEmpty()) {
            return fail(ParseFailure.Kind.EMPTY_QUERY, "[Retrieval]");
        }
        return Parsed.ok(new Decision(ta.thought(), true, query));
    }

    private static Parsed<Decision> fail(ParseFailure.Kind kind, String detail) {
        return Parsed.failed(new ParseFailure(Agent.DECISION, kind, detail));
    }
}
