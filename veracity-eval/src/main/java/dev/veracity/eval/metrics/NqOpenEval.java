package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;

/** NQ-open / DPR {@code qa_validation.py}: exact match after Unicode NFD and the SQuAD normalisation. */
public final class NqOpenEval {

    private NqOpenEval() {}

    public static double exactMatch(String prediction, String gold) {
        return AnswerNormalizer.nqOpen(prediction).equals(AnswerNormalizer.nqOpen(gold)) ? 1.0 : 0.0;
    }
}
