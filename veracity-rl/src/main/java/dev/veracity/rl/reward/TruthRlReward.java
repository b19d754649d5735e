package dev.veracity.rl.reward;

import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.judge.JudgeInput;
import dev.veracity.eval.judge.Outcome;
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
 * LLM judge for what exact match does not settle ({@code judge crag}: Table 11's prompt, one verdict per gold answer,
 * correct as soon as one says so; the authors' order: no box, abstention, exact match, false-premise call, then the
 * judge). A judge that cannot be reached or whose verdict cannot be read gives the configured fallback score, flagged.
 * The outcome is the truthfulness metric's ({@link Truthfulness#outcome}): no {@code \boxed{}} answer outside
 * the reasoning is a hallucination; a boxed abstention ({@link Abstention}: "I don't know" and its wordings) an
 * abstention; a boxed answer equal to a gold answer after SQuAD normalisation, or a false-premise call when a gold
 * answer is "invalid question", correct; anything else a hallucination.
 * <ul>
 *   <li>ternary: correct +1, abstention 0, hallucination -1; binary: correct +1, anything else -1;</li>
 *   <li>knowledge-enhanced (label {@code ook}): for an out-of-knowledge question an abstention +1 and anything else
 *       -1; other questions as the base scheme;</li>
 *   <li>reasoning-enhanced on the ternary outcome r with the label's {@code reasoning_score} rr: multiplicative
 *       r(1 + rr), additive r + 0.5 rr, conditional r rr when r = 1 and r otherwise;</li>
 *   <li>the authors' rule ({@code -authors}): a boxed "invalid question" is -1 even when the gold answer is
 *       "invalid question", as TruthRL's training code scores it (their evaluation, and our default, count it
 *       correct).</li>
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
    private final boolean authorsInvalidRule;
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
     * @param reasoningJudge Table 12's judge for the reasoning score when a label has none, or null
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
        this.authorsInvalidRule = authorsInvalidRule;
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
                    + " reasoning with TruthRL's Table 12 prompt");
        }
        return Optional.empty();
    }

    @Override
    public RewardResult score(RewardInput in) {
        Optional<String> problem = problem(in);
        if (problem.isPresent()) {
            return RewardResult.fallback(fallbackScore, problem.get());
        }
        String response = ReasoningBlocks.strip(in.response());
        Truthfulness.Outcome outcome = truthfulness.outcome(response, in.label().answers());
        Abstention.Reading reading = Abstention.ofBoxed(response, BoxedAnswer.DEFAULT);
        Abstention.Kind kind = reading.kind();
        if (authorsInvalidRule && kind == Abstention.Kind.INVALID_PREMISE) {
            outcome = Truthfulness.Outcome.HALLUCINATE;
        }
        String judged = null;
        if (judge != null && outcome == Truthfulness.Outcome.HALLUCINATE && kind == Abstention.Kind.ANSWER) {
            try {
                judged = judged(in, reading.answer());
            } catch (LlmException e) {
                return RewardResult.fallback(fallbackScore, "judge call failed: " + e.summary());
            } catch (RuntimeException e) {
                return RewardResult.fallback(fallbackScore, "judge failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            if (judged == null) {
                return RewardResult.fallback(fallbackScore, "the judge's verdict could not be read for any gold answer");
            }
            if (judged.equals("correct")) {
                outcome = Truthfulness.Outcome.CORRECT;
            }
        }
        double score;
        if (knowledge && in.label().ook()) {
            score = outcome == Truthfulness.Outcome.ABSTAIN ? 1.0 : -1.0;
        } else {
            score = switch (outcome) {
                case CORRECT -> 1.0;
                case ABSTAIN -> scheme == Scheme.TERNARY ? 0.0 : -1.0;
                case HALLUCINATE, NO_BOX -> -1.0;
            };
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("outcome", outcome.label());
        details.put("boxed", kind != Abstention.Kind.NO_ANSWER);
        if (judged != null) {
            details.put("judge", judged);
        }
        if (reasoning != Reasoning.NONE) {
            Double rr = in.label().reasoningScore();
            if (rr == null) {
                try {
                    Outcome o = reasoningJudge.judge(JudgeInput.of(in.question(), reasoningOf(in.response()),
                            in.label().answers()), CallContext.of(runId, in.traceId(), name).role("reasoning-judge"))
                            .outcome();
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

    /**
     * "correct" when the judge says so for one of the gold answers, "incorrect" when it read as wrong for at least one
     * and right for none, null when no verdict could be read.
     */
    private String judged(RewardInput in, String answer) {
        boolean anyRead = false;
        CallContext ctx = CallContext.of(runId, in.traceId(), name).role("judge");
        List<String> gold = in.label().answers();
        for (int g = 0; g < gold.size(); g++) {
            Outcome o = judge.judge(JudgeInput.of(in.question(), answer, gold.get(g)), ctx.step(g)).outcome();
            if (o == Outcome.CORRECT) {
                return "correct";
            }
            anyRead |= o == Outcome.INCORRECT;
        }
        return anyRead ? "incorrect" : null;
    }

    @Override
    public List<RewardResult> scoreAll(List<RewardInput> inputs) {
        return judge == null ? Reward.super.scoreAll(inputs) : BoundedParallel.map(inputs, parallelism, this::score);
    }

    /**
     * The reasoning Table 12 grades: the first {@code <think>} block's content; the text before a lone
     * {@code </think>} (the chat template opened the block); else the response without its box.
     */
    static String reasoningOf(String response) {
        int open = response.indexOf("<think>");
        int close = response.indexOf("</think>", open < 0 ? 0 : open);
        if (open >= 0 && close > open) {
            return response.substring(open + "<think>".length(), close).strip();
        }
        if (open < 0 && close >= 0) {
            return response.substring(0, close).strip();
        }
        int box = response.lastIndexOf("\\boxed");
        return (box >= 0 ? response.substring(0, box) : response).replace("<think>", "").strip();
    }
}
