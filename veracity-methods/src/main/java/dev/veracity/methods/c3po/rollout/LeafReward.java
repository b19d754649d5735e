package dev.veracity.methods.c3po.rollout;

import dev.veracity.qa.AnswerNormalizer;
import java.util.List;

/**
 * The system-level reward of a leaf (the LLM's answer): R = 1 for success, 0 for failure in the paper; any reward
 * can be plugged in (the CLI offers every reward of {@code veracity-rl}'s registry).
 */
@FunctionalInterface
public interface LeafReward {

    /** The reward of {@code answer} to {@code question} against the gold answers; finite. */
    double score(String question, String answer, List<String> gold);

    /**
     * The authors' accuracy ({@code metrics.py exact_presence}): 1 when a normalised gold answer is a substring of
     * the normalised answer, else 0. Their normalisation is SQuAD's; their {@code "#@"} separator reads as a space.
     * A gold answer that normalises to "" is a substring of anything, as in their code.
     */
    LeafReward AUTHORS_ACCURACY = (question, answer, gold) -> {
        String context = AnswerNormalizer.squad(answer.replace("#@", " "));
        for (String g : gold) {
            if (context.contains(AnswerNormalizer.squad(g))) {
                return 1.0;
            }
        }
        return 0.0;
    };
}
