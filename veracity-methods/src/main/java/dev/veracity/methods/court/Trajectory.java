package dev.veracity.methods.court;

import java.util.List;

/**
 * One ReAct agent's research trajectory (Section 3.1): its steps, its answer and how it ended.
 *
 * @param agent     the agent's role in the traces ({@code agent-1})
 * @param steps     the steps taken, in order
 * @param answer    the Finish answer; "" when it gave none (forced finish, as ReAct's {@code finish[]})
 * @param forced    whether the step limit ended it instead of a Finish action
 * @param repeats   steps whose action repeated the step before's exactly (a looping agent)
 */
public record Trajectory(String agent, List<Step> steps, String answer, boolean forced, int repeats) {

    public Trajectory {
        steps = List.copyOf(steps);
    }

    /** The trajectory as the agent's scratchpad held it, step after step. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        steps.forEach(s -> sb.append(s.text()));
        return sb.toString().stripTrailing();
    }

    /** Model calls made, ReAct's second calls included. */
    public int calls() {
        return steps.stream().mapToInt(Step::calls).sum();
    }

    /** What a reader of the run should know about how it ended ("" when it finished normally). */
    public String note() {
        if (!forced) {
            return "";
        }
        String loop = repeats == 0 ? "" : ", after repeating an action " + repeats + " time" + (repeats == 1 ? "" : "s")
                + " (last: " + steps.getLast().action() + ")";
        return "stopped at the step limit (" + steps.size() + " steps)" + loop + "; no answer";
    }

    public Candidate candidate() {
        return new Candidate(agent, answer, steps.size(), forced, note());
    }
}
