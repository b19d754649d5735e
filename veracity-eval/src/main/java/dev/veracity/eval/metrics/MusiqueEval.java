package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;

/**
 * MuSiQue {@code metrics/answer.py} (taken from allennlp's SQuAD 2.0 tools): {@code compute_exact} and
 * {@code compute_f1}. Unlike SQuAD v1.1, F1 is 1 when both sides normalise to nothing, 0 when only one does.
 */
public final class MusiqueEval {

    private MusiqueEval() {}

    public static double exactMatch(String prediction, String gold) {
        return SquadEval.exactMatch(prediction, gold);
    }

    public static double f1(String prediction, String gold) {
        return TokenF1.v20(AnswerNormalizer.pythonSplit(AnswerNormalizer.squad(prediction)),
                AnswerNormalizer.pythonSplit(AnswerNormalizer.squad(gold)));
    }
}
