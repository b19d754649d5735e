package dev.veracity.cli.report;

import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.methods.c3po.C3poDetail;
import dev.veracity.trace.CallRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** C-3PO's walk through Algorithm 1: every action of the router, roadmap, Decision Maker, filter and answer, in order. */
final class C3poSection implements QuestionSection {

    @Override
    public String name() {
        return "c3po";
    }

    @Override
    public Optional<Section> render(String method, ResultLine line, List<CallRecord> calls) {
        return MethodSections.detail(line, C3poDetail.KEY).map(C3poSection::section);
    }

    private static Section section(C3poDetail d) {
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < d.actions().size(); i++) {
            C3poDetail.Action a = d.actions().get(i);
            rows.add(List.of(String.valueOf(i + 1), a.agent(), String.valueOf(a.depth()), a.action(), a.note()));
        }
        return new Section("C-3PO: the proxy's actions", rows.isEmpty() ? List.of()
                : List.of("#", "agent", "depth", "action", "note"), rows,
                List.of("Strategy: " + (d.strategy().isEmpty() ? "none (no answer was reached)" : d.strategy()) + "."));
    }
}
