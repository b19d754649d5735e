package dev.veracity.rl.reward;

import dev.veracity.eval.metrics.BoxedAnswer;
import dev.veracity.eval.metrics.Truthfulness;
import dev.veracity.text.ReasoningBlocks;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TruthRL's outcome rewards (section 3.2) with no judge ({@code judge none}: exact match only). The outcome is the
 * truthfulness metric's ({@link Truthfulness#outcome}): no {@code \boxed{}} answer ({@link BoxedAnswer}) is a
 * hallucination; a boxed "I don't know" / "I do not know" an abstention; a boxed answer equal to a gold answer after
 * SQuAD normalisation correct; anything else a hallucination.
 * <ul>
 *   <li>{@code truthrl-ternary}: correct +1, abstention 0, hallucination -1;</li>
 *   <li>{@code truthrl-binary}: correct +1, anything else -1 ("r = +1 if y is correct, -1 otherwise").</li>
 * </ul>
 * A boxed "invalid question" is correct when a gold answer is "invalid question" (the authors' evaluation; their
 * training code gives it -1 even then, which the TruthRL issue adds as its "authors" variant).
 */
final class TruthRlReward implements Reward {

    /** The paper's two reward schemes. */
    enum Scheme { TERNARY, BINARY }

    private final Scheme scheme;
    private final Truthfulness truthfulness = new Truthfulness();

    TruthRlReward(Scheme scheme) {
        this.scheme = scheme;
    }

    @Override
    public String name() {
        return scheme == Scheme.TERNARY ? "truthrl-ternary" : "truthrl-binary";
    }

    @Override
    public RewardResult score(RewardInput in) {
        String answer = ReasoningBlocks.strip(in.response());
        Truthfulness.Outcome outcome = truthfulness.outcome(answer, in.label().answers());
        double score = switch (outcome) {
            case CORRECT -> 1.0;
            case ABSTAIN -> scheme == Scheme.TERNARY ? 0.0 : -1.0;
            case HALLUCINATE, NO_BOX -> -1.0;
        };
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("outcome", outcome.label());
        details.put("boxed", BoxedAnswer.extract(answer).isPresent());
        return RewardResult.ok(score, details);
    }
}
