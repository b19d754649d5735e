package dev.veracity.methods.c3po;

import java.util.Objects;

/**
 * Why a proxy output could not be read as its agent's action. Recorded in the answer's parse failures and in the
 * rollout tree; never thrown.
 *
 * @param agent  the agent whose output it was
 * @param kind   what was wrong
 * @param detail a short excerpt or value that shows it
 */
public record ParseFailure(Agent agent, Kind kind, String detail) {

    /** The kinds, named after the authors' terminal reasons where they have one. */
    public enum Kind {
        /** No {@code [...]} action at all ("Invalid Format"). */
        NO_ACTION,
        /** No {@code Action:} marker in a Thought/Action output ("Invalid Format"). */
        NO_ACTION_MARKER,
        /** Nothing before {@code Action:} ("Invalid Format: Without Thought"). */
        NO_THOUGHT,
        /** A bracket text that is not one of the agent's actions ("Invalid Action"). */
        UNKNOWN_ACTION,
        /** {@code [Retrieval]} without a query ("Invalid Action"). */
        EMPTY_QUERY,
        /** A filter id that is not an integer ("Invalid Document Idx"). */
        BAD_INDEX,
        /** A filter id outside 1..number of documents, refused when collecting data ("Hallucinate Document Idx"). */
        HALLUCINATED_INDEX
    }

    public ParseFailure {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(kind, "kind");
        detail = Objects.requireNonNullElse(detail, "");
    }

    /** One line, e.g. {@code router: UNKNOWN_ACTION [Search]}. */
    public String describe() {
        return agent.role() + ": " + kind + (detail.isEmpty() ? "" : " " + detail);
    }

    /** A bounded excerpt of untrusted text for a failure's detail. */
    static String excerpt(String s) {
        String t = s.strip().replace('\n', ' ');
        return t.length() <= 80 ? t : t.substring(0, 77) + "...";
    }
}
