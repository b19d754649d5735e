package dev.veracity.rl.reward;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A reward function: (question, response, label, context) -> score and named details. The one function behind
 * every door (the Java API, {@code veracity reward}, the reward server), so all of them agree.
 * <p>Implementations are thread-safe and total: {@link #score} never throws for any input; a reward that cannot be
 * computed (its model is down) answers its configured fallback score with {@link RewardResult.Status#FALLBACK} and
 * the reason. Reasoning blocks ({@code <think>...</think>}) are removed from the response before scoring.
 */
public interface Reward {

    /** The registry name ({@link Rewards#byName}). */
    String name();

    RewardResult score(RewardInput input);

    /**
     * Scores many inputs, results in input order. Rewards that call a model override this to run the inputs
     * concurrently (bounded); the others score in the caller's thread.
     */
    default List<RewardResult> scoreAll(List<RewardInput> inputs) {
        return inputs.stream().map(this::score).toList();
    }

    /**
     * Every numeric detail (a number, or a boolean read as 1/0) that this reward's results may carry, in a fixed order,
     * each with its neutral value: the value that stands for it in a result that lacks it (a fallback, which has no
     * details, or a detail only some results give). Trainers that log per-sample columns need the same columns for
     * every sample (OpenRLHF concatenates them into one tensor per key): the reward server sends exactly these, and
     * {@code fallback}, for every sample. A numeric detail not declared here is left out of those columns. Default:
     * none.
     */
    default Map<String, Double> numericDetails() {
        return Map.of();
    }

    /**
     * Why this reward cannot score the input at all (MARCH without documents), so that a door can refuse it as bad
     * input before scoring anything; {@link #score} answers such an input with the fallback and this reason.
     */
    default Optional<String> problem(RewardInput input) {
        return Optional.empty();
    }
}
