package dev.veracity.retrieval.react;

/** A ReAct action: what {@link ActionParser} reads from a model's turn, and what {@link WikiEnvironment} performs. */
public sealed interface ReactAction {

    /** {@code Search[entity]}: open the page with that title. */
    record Search(String entity) implements ReactAction {
    }

    /** {@code Lookup[keyword]}: the next sentence of the current page with the keyword (or, MuSiQue, a paragraph). */
    record Lookup(String keyword) implements ReactAction {
    }

    /** {@code Finish[answer]}: the final answer. */
    record Finish(String answer) implements ReactAction {
    }

    /** A turn without a usable action: the text as the model wrote it, answered with "Invalid action: ...". */
    record Invalid(String text) implements ReactAction {
    }
}
