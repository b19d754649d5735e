package dev.veracity.sim.reader;

import java.util.Optional;

/**
 * The evaluation judges: CRAG / TruthRL's JSON-score judge, C-3PO's True/False validator and the Yes/No equivalence
 * judge. Verdict: the normalised gold occurs in the normalised prediction.
 */
final class JudgeReader {

    private JudgeReader() {
    }

    static final String CRAG = "Assume you are human expert in grading predictions";
    static final String C3PO = "You are a precise answer validator";
    static final String EQUIVALENCE = "You are checking whether two answers to the same question are equivalent";

    static Optional<String> read(String p) {
        if (p.contains(CRAG)) {
            String gold = Text.between(p, "\nGround Truth:", "\nPrediction:");
            String pred = Text.between(p, "\nPrediction:", "\nOutput:");
            boolean ok = matches(pred, gold);
            return Optional.of("{\"explanation\": " + Text.quote(ok ? "The prediction contains the ground truth."
                    : "The prediction does not contain the ground truth.") + ", \"score\": " + (ok ? 1 : 0) + "}");
        }
        if (p.contains(C3PO)) {
            String gold = Text.between(p, "\nCorrect Answer:", "\nPredicted Answer:");
            String pred = Text.between(p, "\nPredicted Answer:", null);
            return Optional.of(matches(pred, gold) ? "True" : "False");
        }
        if (p.contains(EQUIVALENCE)) {
            String ref = Text.between(p, "\nReference answer:", "\nCandidate answer:");
            String cand = Text.between(p, "\nCandidate answer:", "\n\nAre the candidate answer");
            return Optional.of(matches(cand, ref) ? "Yes" : "No");
        }
        return Optional.empty();
    }

    private static boolean matches(String prediction, String gold) {
        for (String g : Text.goldItems(gold)) {
            if (Text.contains(prediction, g)) {
                return true;
            }
        }
        return false;
    }
}
