package dev.veracity.methods.truthrl;

import dev.veracity.method.MethodAnswer;
import dev.veracity.qa.Abstention;
import dev.veracity.qa.AnswerNormalizer;
import dev.veracity.qa.BoxedAnswer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TruthRL's majority@k (figure 2): k responses to one question, each read as one answer; the answer most responses
 * give (SQuAD-normalised; every abstention counts as the same answer, as does every false-premise call) is the
 * prediction. Responses without a box do not vote unless none has one (then the prediction is no answer). A tie
 * goes to the answer reached first in sample order, so a rerun with the same samples gives the same prediction.
 */
final class MajorityVote {

    private MajorityVote() {
    }

    static MethodAnswer of(List<String> outputs, BoxedAnswer.Mode mode) {
        Map<String, List<Integer>> votes = new LinkedHashMap<>();
        List<Abstention.Reading> readings = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            Abstention.Reading r = Abstention.ofBoxed(outputs.get(i), mode);
            readings.add(r);
            if (r.kind() != Abstention.Kind.NO_ANSWER) {
                votes.computeIfAbsent(key(r), x -> new ArrayList<>()).add(i);
            }
        }
        if (votes.isEmpty()) {
            MethodAnswer none = TruthRl.read(outputs.isEmpty() ? "" : outputs.getFirst(), mode);
            return withShare(none, 0.0, outputs.size());
        }
        List<Integer> best = votes.values().stream().reduce((a, b) -> b.size() > a.size() ? b : a).orElseThrow();
        int winner = best.getFirst();
        MethodAnswer answer = TruthRl.read(outputs.get(winner), mode);
        return withShare(answer, (double) best.size() / outputs.size(), outputs.size());
    }

    private static String key(Abstention.Reading r) {
        return switch (r.kind()) {
            case ABSTAIN -> "\u0000abstain";
            case INVALID_PREMISE -> "\u0000invalid";
            default -> AnswerNormalizer.squad(r.answer());
        };
    }

    private static MethodAnswer withShare(MethodAnswer a, double share, int k) {
        Map<String, Double> signals = new LinkedHashMap<>(a.signals());
        signals.put("majority_share", share);
        signals.put("samples", (double) k);
        return new MethodAnswer(a.prediction(), a.answers(), a.parseFailures(), signals, a.raw(), a.details());
    }
}
