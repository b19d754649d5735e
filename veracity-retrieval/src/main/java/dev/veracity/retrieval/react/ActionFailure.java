package dev.veracity.retrieval.react;

/** Why an agent's turn gave no action the environment can take; recorded with the step, never fatal. */
public enum ActionFailure {
    /** The output was empty (after reasoning blocks were removed). */
    EMPTY_OUTPUT("empty output"),
    /** No line holds an action: a thought only, or prose. */
    NO_ACTION("no action line"),
    /** An "Action i:" line whose action is not Search[...], Lookup[...] or Finish[...]. */
    UNKNOWN_ACTION("an action other than Search[...], Lookup[...] or Finish[...]"),
    /** Search[] or Lookup[] with nothing to search for. */
    EMPTY_ARGUMENT("an action without its argument"),
    /** The action's bracket is never closed on its line (output cut off, or a malformed action). */
    UNCLOSED_BRACKET("an action whose bracket is not closed");

    private final String description;

    ActionFailure(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
