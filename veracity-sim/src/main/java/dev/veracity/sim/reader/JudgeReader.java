package dev.veracity.sim.reader;

import java.util.Optional;

/**
 * The evaluation judges: CRAG / TruthRL's JSON-score judge (the authors' released text, a system message then
 * {@code "Question: ...\n Ground truth: ...\n Prediction: ...\n"}, or the paper's Table 11), TruthRL's reasoning judge
 * (likewise, {@code Ground Truth} and {@code Reasoning}), C-3PO's True/False validator and the Yes/No equivalence judge.
 * Verdict: the normalised gold occurs in the normalised prediction (or reasoning).
 */
public final class JudgeReader implements PromptReader {

    public JudgeReader() {
    }

    @Override
    public String name() {
        return "judges";
    }

    @Override
    public int order() {
        return JUDGES;
    }

    static final String CRAG = "Assume you are human expert in grading predictions";
    static final String CRAG_AUTHORS = "Assume you are a human expert in grading predictions";
    static final String REASONING = "Assume you are human expert in evaluating the usefulness of model-generated";
    static final String REASONING_AUTHORS = "Assume you are a human expert in evaluating the usefulness of model-generated";
    static final String C3PO = "You are a precise answer validator";
    static final String EQUIVALENCE = "You are checking whether two answers to the same question are equivalent";

    @Override
    public Optional<String> read(String p) {
        if (p.contains(CRAG_AUTHORS)) {
            return Optional.of(score(matches(Text.between(p, "\n Prediction:", null),
                    Text.between(p, "\n Ground truth:", "\n Prediction:"))));
        }
        if (p.contains(REASONING_AUTHORS)) {
            return Optional.of(score(matches(Text.between(p, "\n Reasoning:", null),
                    Text.between(p, "\n Ground Truth:", "\n Reasoning:"))));
        }
        if (p.contains(REASONING)) {
            return Optional.of(score(matches(Text.between(p, "\nReasoning:", "\nOutput:"),
                    Text.between(p, "\nGround Truth:", "\nReasoning:"))));
        }
        if (p.contains(CRAG)) {
            return Optional.of(score(matches(Text.between(p, "\nPrediction:", "\nOutput:"),
                    Text.between(p, "\nGround Truth:", "\nPrediction:"))));
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

    private static String score(boolean ok) {
        return "{\"explanation\": " + Text.quote(ok ? "The prediction contains the ground truth."
                : "The prediction does not contain the ground truth.") + ", \"score\": " + (ok ? 1 : 0) + "}";
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
