package dev.veracity.rl.reward;

import dev.veracity.methods.c3po.rollout.LeafReward;
import dev.veracity.text.ReasoningBlocks;
import java.util.Map;

/**
 * C-3PO's leaf reward (section 5.1: R = 1 for success, 0 for failure) as the authors compute it
 * ({@code metrics.py exact_presence}): 1 when a SQuAD-normalised gold answer is a substring of the normalised
 * response ("#@" separators read as spaces), else 0. The same function the rollout uses by default
 * ({@link LeafReward#AUTHORS_ACCURACY}), so a reward file and a rollout tree agree.
 */
final class C3poReward implements Reward {

    @Override
    public String name() {
        return "c3po-accuracy";
    }

    /** {@code correct}, neutral 0. */
    @Override
    public Map<String, Double> numericDetails() {
        return Map.of("correct", 0.0);
    }

    @Override
    public RewardResult score(RewardInput in) {
        double r = LeafReward.AUTHORS_ACCURACY.score(in.question(), ReasoningBlocks.strip(in.response()),
                in.label().answers());
        return RewardResult.ok(r, Map.of("correct", r >= 1.0));
    }
}
