package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;

/** SQuAD v1.1 {@code evaluate-v1.1.py}: {@code exact_match_score} and {@code f1_score} for one gold answer. */
public final class SquadEval {

    private SquadEval() {}

    /** 1 when the normalised strings are equal ({@code "the"} and {@code ""} are equal: both normalise to ""). */
    public static double exactMatch(String prediction, String gold) {
        return AnswerNormalizer.squad(prediction).equals(AnswerNormalizer.squad(gold)) ? 1.0 : 0.0;
    }

    /** Token F1 on normalised tokens; 0 when no token is shared (v1.1 has no empty-answer special case). */
    public static double f1(String prediction, String gold) {
        return TokenF1.v11(AnswerNormalizer.pythonSplit(AnswerNormalizer.squad(prediction)),
                AnswerNormalizer.pythonSplit(AnswerNormalizer.squad(gold)));
    }
}
