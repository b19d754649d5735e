package dev.veracity.cli.report;

import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.methods.madam.MadamDetail;
import dev.veracity.trace.CallRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * MADAM-RAG's debate: every agent's answer in every round (one agent per document) with the aggregator's answer set
 * after each round, then the answers the final aggregation kept and the agents' last answers it dropped.
 */
final class MadamSection implements QuestionSection {

    @Override
    public String name() {
        return "madam";
    }

    @Override
    public Optional<Section> render(String method, ResultLine line, List<CallRecord> calls) {
        return MethodSections.detail(line, MadamDetail.KEY).map(MadamSection::section);
    }

    private static Section section(MadamDetail d) {
        List<String> columns = new ArrayList<>(List.of("agent"));
        d.rounds().forEach(r -> columns.add("round " + r.number()));
        int agents = d.rounds().stream().mapToInt(r -> r.answers().size()).max().orElse(0);
        List<List<String>> rows = new ArrayList<>();
        for (int a = 0; a < agents; a++) {
            List<String> row = new ArrayList<>(List.of("agent-" + (a + 1)));
            for (MadamDetail.RoundDetail r : d.rounds()) {
                String answer = a < r.answers().size() ? r.answers().get(a) : "";
                row.add(answer.isBlank() ? "(no answer)" : answer);
            }
            rows.add(row);
        }
        List<String> aggregator = new ArrayList<>(List.of("aggregator"));
        for (MadamDetail.RoundDetail r : d.rounds()) {
            aggregator.add(r.aggregated() == null ? "(converged: no aggregation)" : String.join("; ", r.aggregated()));
        }
        rows.add(aggregator);

        List<List<String>> decided = new ArrayList<>();
        d.kept().forEach(k -> decided.add(List.of(k, "kept")));
        d.dropped().forEach(k -> decided.add(List.of(k, "dropped")));
        Block aggregation = new Block("What the aggregator kept and dropped", decided.isEmpty() ? List.of()
                : List.of("answer", "aggregator"), decided,
                List.of("Kept: " + (d.kept().isEmpty() ? "nothing" : String.join("; ", d.kept())) + ". Dropped: "
                        + (d.dropped().isEmpty() ? "none of the agents' last answers" : String.join("; ", d.dropped()))
                        + "."));
        List<String> notes = new ArrayList<>();
        if (d.stoppedEarly()) {
            notes.add("The debate stopped after round " + d.rounds().size() + ": every agent kept its answer, so the"
                    + " round before's aggregation is final.");
        }
        return new Section("MADAM-RAG: the debate, round by round, and the aggregator's answers",
                d.rounds().isEmpty() ? List.of() : columns, d.rounds().isEmpty() ? List.of() : rows, notes,
                List.of(aggregation));
    }
}
