package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;
import java.util.Set;

/** HotpotQA {@code hotpot_evaluate_v1.py f1_score}: SQuAD F1 with the yes / no / noanswer rule. */
public final class HotpotEval {

    private static final Set<String> SPECIAL = Set.of("yes", "no", "noanswer");

    private HotpotEval() {}

    /** 0 when either normalised side is yes / no / noanswer and the two differ; otherwise SQuAD v1.1 F1. */
    public static double f1(String prediction, String gold) {
        String p = AnswerNormalizer.squad(prediction);
        String g = AnswerNormalizer.squad(gold);
        if ((SPECIAL.contains(p) || SPECIAL.contains(g)) && !p.equals(g)) return 0.0;
        return TokenF1.v11(AnswerNormalizer.pythonSplit(p), AnswerNormalizer.pythonSplit(g));
    }
}
