package dev.veracity.rl.reward;

import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.judge.JudgeInput;
import dev.veracity.eval.judge.OrderedJudge;
import dev.veracity.eval.judge.Outcome;
import dev.veracity.eval.metrics.TruthRlOrder;
import dev.veracity.eval.metrics.Truthfulness;
import dev.veracity.llm.LlmException;
import dev.veracity.trace.CallContext;
import dev.veracity.qa.Abstention;
import dev.veracity.qa.BoxedAnswer;
import dev.veracity.text.ReasoningBlocks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TruthRL's rewards (section 3.2, Table 3 ablations, section 4.6), with exact match only ({@code judge none}) or an
 * LLM judge for what exact match does not settle ({@code judge crag}: the authors' judge prompt, one verdict per gold
 * answer, correct as soon as one says so). The outcome is decided by {@link TruthRlOrder}, the mechanism the
 * truthfulness metrics and the knowledge probe share: no {@code \boxed{}} answer outside the reasoning is a
 * hallucination; a boxed abstention ({@link Abstention}: "I don't know" and its wordings) an abstention; then exact
 * match, "invalid question" and the judge in the order of the authors' evaluation ({@link TruthRlOrder.Order#EVALUATION}:
 * gold by gold; a false-premise call is right when the gold answer is "invalid question"), or with the {@code -authors}
 * rewards in the order of their training code ({@link TruthRlOrder.Order#TRAINING}: a boxed "invalid question" is -1
 * even when the gold answer is "invalid question", then exact match with any gold, then the judge). A judge that cannot
 * be reached, or whose verdict cannot be read for some gold while none is judged correct, gives the configured fallback
 * score, flagged.
 * <ul>
 *   <li>ternary: correct +1, abstention 0, hallucination -1; binary: correct +1, anything else -1;</li>
 *   <li>knowledge-enhanced (label {@code ook}): for an out-of-knowledge question an abstention +1 and anything else
 *       -1, without a judge call; other questions as the base scheme;</li>
 *   <li>reasoning-enhanced on the ternary outcome r with the label's {@code reasoning_score} rr: multiplicative
 *       r(1 + rr), additive r + 0.5 rr, conditional r rr when r = 1 and r otherwise; without one in the label the
 *       reasoning judge grades the whole response, as the authors' {@code compute_process_score} does.</li>
 * </ul>
 */
final class TruthRlReward implements Reward {

    /** The outcome scheme. */
    enum Scheme { TERNARY, BINARY }

    /** How the reasoning score is combined (section 4.6, Table 8). */
    enum Reasoning { NONE, MULTIPLICATIVE, ADDITIVE, CONDITIONAL }

    /** The additive strategy's lambda. */
    static final double ADDITIVE_LAMBDA = 0.5;

    private final String name;
    private final Scheme scheme;
    private final boolean knowledge;
    private final Reasoning reasoning;
    private final TruthRlOrder.Order order;
    private final double fallbackScore;
    private final Judge judge;
    private final Judge reasoningJudge;
    private final String runId;
    private final int parallelism;
    private final Truthfulness truthfulness = new Truthfulness();

    TruthRlReward(String name, Scheme scheme, boolean knowledge, Reasoning reasoning, boolean authorsInvalidRule,
                  double fallbackScore) {
        this(name, scheme, knowledge, reasoning, authorsInvalidRule, fallbackScore, null, null, "rewards", 1);
    }

    /**
     * @param judge          an LLM judge for boxed answers exact match does not settle, or null
     * @param reasoningJudge the reasoning-quality judge for the reasoning score when a label has none, or null
     */
    TruthRlReward(String name, Scheme scheme, boolean knowledge, Reasoning reasoning, boolean authorsInvalidRule,
                  double fallbackScore, Judge judge, Judge reasoningJudge, String runId, int parallelism) {
        this.judge = judge;
        this.reasoningJudge = reasoningJudge;
        this.runId = runId;
        this.parallelism = parallelism;
        this.fallbackScore = fallbackScore;
        this.name = name;
        this.scheme = scheme;
        this.knowledge = knowledge;
        this.reasoning = reasoning;
        this.order = authorsInvalidRule ? TruthRlOrder.Order.TRAINING : TruthRlOrder.Order.EVALUATION;
    }

    @Override
    public String name() {
        return name;
    }

    /** {@code boxed}; with a reasoning strategy also {@code outcome_reward} and {@code reasoning_score}; neutral 0. */
    @Override
    public Map<String, Double> numericDetails() {
        return reasoning == Reasoning.NONE ? Map.of("boxed", 0.0) : NumericDetails.zeros("boxed", "outcome_reward",
                "reasoning_score");
    }

    @Override
    public Optional<String> problem(RewardInput in) {
        if (knowledge && in.label().ook() == null) {
            return Optional.of(name + " needs the label's \"ook\" (whether the question is out of the model's knowledge)");
        }
        if (reasoning != Reasoning.NONE && in.label().reasoningScore() == null && reasoningJudge == null) {
            return Optional.of(name + " needs the label's \"reasoning_score\", or a judge (--judge crag) to score the"
                    + " reasoning with TruthRL's reasoning-quality judge");
        }
        return Optional.empty();
    }

    @Override
    public RewardResult score(RewardInput in) {
        Optional<String> problem = problem(in);
        if (problem.isPresent()) {
            return RewardResult.fallback(fallbackScore, problem.get());
        }
        Abstention.Reading reading = Abstention.ofBoxed(ReasoningBlocks.strip(in.response()), BoxedAnswer.DEFAULT);
        boolean ook = knowledge && in.label().ook();
        // an out-of-knowledge question is scored by abstention alone: no judge call (the authors' _OOK rewards)
        OrderedJudge asked = judge == null || ook ? null
                : new OrderedJudge(judge, in.question(), null, CallContext.of(runId, in.traceId(), name));
        TruthRlOrder.Graded graded;
        try {
            graded = TruthRlOrder.grade(reading, in.label().answers(), order, asked);
        } catch (LlmException e) {
            return RewardResult.fallback(fallbackScore, "judge call failed: " + e.summary());
        } catch (RuntimeException e) {
            return RewardResult.fallback(fallbackScore, "judge failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        if (graded.kind() == TruthRlOrder.Kind.UNJUDGED) {
            return RewardResult.fallback(fallbackScore, "the judge's verdict could not be read and no gold answer was"
                    + " judged correct");
        }
        Truthfulness.Outcome outcome = truthfulness.outcome(graded);
        double score;
        if (ook) {
            score = outcome == Truthfulness.Outcome.ABSTAIN ? 1.0 : -1.0;
        } else {
            score = switch (outcome) {
                case CORRECT -> 1.0;
                case ABSTAIN -> scheme == Scheme.TERNARY ? 0.0 : -1.0;
                case HALLUCINATE, NO_BOX, UNJUDGED -> -1.0;
            };
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("outcome", outcome.label());
        details.put("boxed", reading.kind() != Abstention.Kind.NO_ANSWER);
        if (judge != null) {
            // with a judge, what decided: no_box, abstain, em, invalid or judge (and then its verdict)
            details.put("decided_by", graded.decidedBy().label());
            if (graded.decidedBy() == TruthRlOrder.Decided.JUDGE) {
                details.put("judge", outcome == Truthfulness.Outcome.CORRECT ? "correct" : "incorrect");
            }
        }
        if (reasoning != Reasoning.NONE) {
            Double rr = in.label().reasoningScore();
            if (rr == null) {
                try {
                    // the whole response, reasoning and boxed answer, as the authors' compute_process_score grades it
                    Outcome o = reasoningJudge.judge(JudgeInput.of(in.question(), in.response(), in.label().answers()),
                            CallContext.of(runId, in.traceId(), name).role("reasoning-judge")).outcome();
                    if (o != Outcome.CORRECT && o != Outcome.INCORRECT) {
                        return RewardResult.fallback(fallbackScore, "the reasoning judge's verdict could not be read");
                    }
                    rr = o == Outcome.CORRECT ? 1.0 : 0.0;
                } catch (LlmException e) {
                    return RewardResult.fallback(fallbackScore, "reasoning judge call failed: " + e.summary());
                }
            }
            details.put("outcome_reward", score);
            details.put("reasoning_score", rr);
            score = switch (reasoning) {
                case MULTIPLICATIVE -> score * (1 + rr);
                case ADDITIVE -> score + ADDITIVE_LAMBDA * rr;
                case CONDITIONAL -> score == 1.0 ? score * rr : score;
                case NONE -> score;
            };
        }
        return RewardResult.ok(score, details);
    }

    @Override
    public List<RewardResult> scoreAll(List<RewardInput> inputs) {
        return judge == null ? Reward.super.scoreAll(inputs) : BoundedParallel.map(inputs, parallelism, this::score);
    }
}
