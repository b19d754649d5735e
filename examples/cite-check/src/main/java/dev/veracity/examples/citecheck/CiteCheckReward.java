package dev.veracity.examples.citecheck;

import dev.veracity.eval.metrics.SquadEval;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import dev.veracity.rl.reward.RewardResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * cite-check's reward on a raw reply to its prompt: +1 for a correct answer (SQuAD exact match with a gold answer)
 * that cites a passage, 0 for "unknown", -1 for anything else (a wrong answer, a correct one without a citation, an
 * unreadable reply). When the label carries the question's passages, a cited passage must also contain the answer, as
 * the method's own check asks. Like every reward, total: it never throws.
 */
final class CiteCheckReward implements Reward {

    private static final Map<String, Double> DETAILS = Map.of("correct", 0.0, "cited", 0.0, "unknown", 0.0);

    @Override
    public String name() {
        return CiteCheck.NAME;
    }

    @Override
    public Map<String, Double> numericDetails() {
        return DETAILS;
    }

    @Override
    public RewardResult score(RewardInput in) {
        CitedAnswer reply = CitedAnswer.parse(in.response());
        Map<String, Object> details = new LinkedHashMap<>();
        if (reply instanceof CitedAnswer.Unknown) {
            details.put("unknown", true);
            return RewardResult.ok(0.0, details);
        }
        if (!(reply instanceof CitedAnswer.Cited c)) {
            details.put("unreadable", ((CitedAnswer.Unreadable) reply).reason());
            return RewardResult.ok(-1.0, details);
        }
        boolean correct = in.label().answers().stream().anyMatch(g -> SquadEval.exactMatch(c.answer(), g) == 1.0);
        boolean cited = !c.passages().isEmpty()
                && (in.label().documents().isEmpty() || CiteCheck.supported(c, in.label().documents()));
        details.put("correct", correct);
        details.put("cited", cited);
        return RewardResult.ok(correct && cited ? 1.0 : -1.0, details);
    }
}
