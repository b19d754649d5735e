package dev.veracity.cli.report;

import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.methods.truthrl.TruthRlDetail;
import dev.veracity.trace.CallRecord;
import java.util.List;
import java.util.Optional;

/** TruthRL's commitment: the boxed answer and its class in TruthRL's ternary reward. */
final class TruthRlSection implements QuestionSection {

    @Override
    public String name() {
        return "truthrl";
    }

    @Override
    public Optional<Section> render(String method, ResultLine line, List<CallRecord> calls) {
        return MethodSections.detail(line, TruthRlDetail.KEY).map(d -> new Section("TruthRL: the boxed answer",
                List.of("\\boxed{...}", "class"), List.of(List.of(d.box().isEmpty() ? "(no box)" : d.box(), d.klass())),
                List.of(meaning(d.klass()))));
    }

    private static String meaning(String klass) {
        return switch (klass) {
            case "answer" -> "An answer: scored against the gold answers (+1 correct, -1 wrong in TruthRL's reward).";
            case "abstain" -> "An abstention (\"I don't know\"): neither right nor wrong (0 in TruthRL's reward).";
            case "invalid_premise" -> "A false-premise call (\"invalid question\"): the question's premise is judged false.";
            case "no_box" -> "No \\boxed{} answer outside the reasoning: counted as a hallucination.";
            default -> klass;
        };
    }
}
