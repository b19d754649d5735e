package dev.veracity.methods.court;

import dev.veracity.retrieval.react.ActionFailure;

/**
 * One step of a trajectory as the scratchpad shows it.
 *
 * @param index       the step number, from 1
 * @param thought     the thought, one line
 * @param action      the action as shown ({@code Search[x]}), or the unparseable text
 * @param observation what the environment answered
 * @param failure     why the turn had no usable action, or null
 * @param calls       model calls this step took (2 when ReAct's second call for the action was made)
 */
public record Step(int index, String thought, String action, String observation, ActionFailure failure, int calls) {

    /** The step in ReAct's scratchpad format: Thought i, Action i, Observation i. */
    public String text() {
        return "Thought " + index + ": " + thought + "\nAction " + index + ": " + action + "\nObservation " + index
                + ": " + observation + "\n";
    }
}
