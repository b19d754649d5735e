package dev.veracity.methods.c3po;

/**
 * The Reasoning Router's output (Appendix B.1): {@code [Planning]}, {@code [Retrieval] query} or
 * {@code [No Retrieval]}, read as the authors do: the first bracket pair, its text one of the three actions exactly,
 * the rest the query, cut to its first 100 words; {@code [Retrieval]} needs a query.
 */
public final class RouterParser {

    /**
     * A routing decision.
     *
     * @param strategy the chosen strategy
     * @param query    the query for {@link Strategy#RETRIEVAL} ("" otherwise)
     */
    public record Route(Strategy strategy, String query) {

        /** The action as the router writes it. */
        public String action() {
            return strategy.action(query);
        }
    }

    private RouterParser() {
    }

    /** Total and linear: a route, or the failure of this output. */
    public static Parsed<Route> parse(String output) {
        String s = output == null ? "" : output;
        ActionText.Bracket b = ActionText.firstBracket(s);
        if (b == null) {
            return Parsed.failed(new ParseFailure(Agent.ROUTER, ParseFailure.Kind.NO_ACTION, ParseFailure.excerpt(s)));
        }
        Strategy strategy = Strategy.ofTag(b.inside());
        if (strategy == null) {
            return Parsed.failed(new ParseFailure(Agent.ROUTER, ParseFailure.Kind.UNKNOWN_ACTION,
                    "[" + ParseFailure.excerpt(b.inside()) + "]"));
        }
        String query = ActionText.words(b.after(), ActionText.MAX_QUERY_WORDS);
        if (strategy == Strategy.RETRIEVAL && query.isEmpty()) {
            return Parsed.failed(new ParseFailure(Agent.ROUTER, ParseFailure.Kind.EMPTY_QUERY, "[Retrieval]"));
        }
        return Parsed.ok(new Route(strategy, strategy == Strategy.RETRIEVAL ? query : ""));
    }
}
