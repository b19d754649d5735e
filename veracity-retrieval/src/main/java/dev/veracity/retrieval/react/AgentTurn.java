package dev.veracity.retrieval.react;

/** One model turn of a ReAct agent as {@link ActionParser} reads it: a thought and an action, or a typed failure. */
public sealed interface AgentTurn {

    /** The thought, on one line ("" when there is none). */
    String thought();

    /** A turn with an action the environment can take. */
    record Acted(String thought, ReactAction action) implements AgentTurn {
    }

    /** A turn without one: why, and the text it was read from. */
    record Failed(String thought, ActionFailure failure, String text) implements AgentTurn {
    }
}
