package dev.veracity.methods.c3po;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.veracity.method.DetailKey;
import java.util.List;
import java.util.Objects;

/**
 * What C-3PO's proxy decided, as a run keeps it (the result line's {@code details.c3po}): every action of Algorithm 1
 * in order (the router's strategy, the roadmap, each Decision Maker's action, each filter's selection, the answer) and
 * the strategy that answered. The report's question page reads it.
 *
 * @param strategy the strategy that answered ({@link Strategy#optionName()})
 * @param actions  the actions, in the order they were taken
 */
@JsonPropertyOrder({"strategy", "actions"})
public record C3poDetail(String strategy, List<Action> actions) {

    /** The detail's key: {@code details.c3po} in a result line. */
    public static final DetailKey<C3poDetail> KEY = DetailKey.of("c3po", C3poDetail.class);

    public C3poDetail {
        strategy = Objects.requireNonNullElse(strategy, "");
        actions = actions == null ? List.of() : List.copyOf(actions);
    }

    /**
     * One action.
     *
     * @param agent  {@code router}, {@code roadmap}, {@code decision}, {@code filter} or {@code answer} (the trace role)
     * @param depth  its node's depth in the tree
     * @param action what it did, as the agent writes it ({@code [Retrieval] q}, {@code [LLM]}, {@code [1, 3]})
     * @param note   how it came about when not plainly ({@code forced}, a parse fallback, the query filtered); "" when
     *               plainly, and then not written
     */
    @JsonPropertyOrder({"agent", "depth", "action", "note"})
    public record Action(String agent, int depth, String action, @JsonInclude(JsonInclude.Include.NON_EMPTY) String note) {
        public Action {
            agent = Objects.requireNonNullElse(agent, "");
            action = Objects.requireNonNullElse(action, "");
            note = Objects.requireNonNullElse(note, "");
        }
    }
}
