package dev.veracity.methods.court;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.veracity.method.DetailKey;
import dev.veracity.qa.AnswerNormalizer;
import java.util.List;
import java.util.Objects;

/**
 * What Reasoning Court decided, as a run keeps it (the result line's {@code details.court}): every agent's trajectory
 * (its Thought / Action / Observation steps and its answer) and the judge's choice among their answers. The report's
 * question page reads it; the answers alone are also the line's {@code candidates} ({@link Candidate}).
 *
 * @param trajectories the agents' trajectories, in agent order
 * @param judge        the judge's choice; null for {@code court-no-judge}
 */
@JsonPropertyOrder({"trajectories", "judge"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CourtDetail(List<TrajectoryDetail> trajectories, JudgeDetail judge) {

    /** The detail's key: {@code details.court} in a result line. */
    public static final DetailKey<CourtDetail> KEY = DetailKey.of("court", CourtDetail.class);

    public CourtDetail {
        trajectories = trajectories == null ? List.of() : List.copyOf(trajectories);
    }

    /**
     * One agent's research.
     *
     * @param agent  its role in the traces ({@code agent-1})
     * @param answer its Finish answer ("" when it gave none)
     * @param forced whether the step limit stopped it
     * @param steps  its steps, in order
     */
    @JsonPropertyOrder({"agent", "answer", "forced", "steps"})
    public record TrajectoryDetail(String agent, String answer, boolean forced, List<StepDetail> steps) {
        public TrajectoryDetail {
            agent = Objects.requireNonNullElse(agent, "");
            answer = Objects.requireNonNullElse(answer, "");
            steps = steps == null ? List.of() : List.copyOf(steps);
        }
    }

    /**
     * One step as the scratchpad shows it ({@link Step}).
     *
     * @param index       from 1
     * @param thought     the thought
     * @param action      the action ({@code Search[x]}), or the text that held no usable one
     * @param observation what the environment answered
     * @param failure     why the step had no usable action ("" when it had one)
     */
    @JsonPropertyOrder({"index", "thought", "action", "observation", "failure"})
    public record StepDetail(int index, String thought, String action, String observation,
                             @JsonInclude(JsonInclude.Include.NON_EMPTY) String failure) {
        public StepDetail {
            thought = Objects.requireNonNullElse(thought, "");
            action = Objects.requireNonNullElse(action, "");
            observation = Objects.requireNonNullElse(observation, "");
            failure = Objects.requireNonNullElse(failure, "");
        }
    }

    /** How the judge reached the final answer. */
    public enum Choice {
        /** Its {@code Complete[...]} answer is an agent's answer (SQuAD-normalised). */
        @JsonProperty("selected") SELECTED,
        /** Its {@code Complete[...]} answer is no agent's: it wrote one of its own. */
        @JsonProperty("synthesised") SYNTHESISED,
        /** Its output held no usable {@code Complete[...]}: the agents' majority answer was taken. */
        @JsonProperty("fallback") FALLBACK
    }

    /**
     * The judge's choice.
     *
     * @param choice the way it chose
     * @param agent  the agent whose answer it selected (the first such agent), "" when it synthesised or fell back
     * @param answer the final answer
     */
    @JsonPropertyOrder({"choice", "agent", "answer"})
    public record JudgeDetail(Choice choice, String agent, String answer) {
        public JudgeDetail {
            Objects.requireNonNull(choice, "choice");
            agent = Objects.requireNonNullElse(agent, "");
            answer = Objects.requireNonNullElse(answer, "");
        }
    }

    /** The trajectories as a run keeps them. */
    static List<TrajectoryDetail> of(List<Trajectory> ts) {
        return ts.stream().map(t -> new TrajectoryDetail(t.agent(), t.answer(), t.forced(), t.steps().stream()
                .map(s -> new StepDetail(s.index(), s.thought(), s.action(), s.observation(),
                        s.failure() == null ? "" : s.failure().description()))
                .toList())).toList();
    }

    /** The judge's choice of {@code answer} among the trajectories' answers; {@code parsed} false for the fallback. */
    static JudgeDetail judge(List<Trajectory> ts, String answer, boolean parsed) {
        if (!parsed) {
            return new JudgeDetail(Choice.FALLBACK, "", answer);
        }
        String a = AnswerNormalizer.squad(answer);
        return ts.stream().filter(t -> !t.answer().isBlank() && AnswerNormalizer.squad(t.answer()).equals(a)).findFirst()
                .map(t -> new JudgeDetail(Choice.SELECTED, t.agent(), answer))
                .orElseGet(() -> new JudgeDetail(Choice.SYNTHESISED, "", answer));
    }
}
