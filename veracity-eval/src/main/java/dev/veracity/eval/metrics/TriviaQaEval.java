package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;

/** TriviaQA {@code triviaqa_evaluation.py}: {@code exact_match_score} and {@code f1_score} for one alias. */
public final class TriviaQaEval {

    private TriviaQaEval() {}

    public static double exactMatch(String prediction, String gold) {
        return AnswerNormalizer.triviaQa(prediction).equals(AnswerNormalizer.triviaQa(gold)) ? 1.0 : 0.0;
    }

    /** As SQuAD v1.1 F1 (0 when nothing is shared) on TriviaQA-normalised tokens. */
    public static double f1(String prediction, String gold) {
        return TokenF1.v11(AnswerNormalizer.pythonSplit(AnswerNormalizer.triviaQa(prediction)),
                AnswerNormalizer.pythonSplit(AnswerNormalizer.triviaQa(gold)));
    }
}
