package dev.veracity.cli.report;

import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.methods.march.MarchDetail;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.trace.CallRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * MARCH's verification ({@code march} and the {@code METHOD+march} compositions): each claim the Proposer wrote, the
 * answer every Checker sample gave, the vote and the claim's verdict, then the verdict on the response.
 */
final class MarchSection implements QuestionSection {

    @Override
    public String name() {
        return "march";
    }

    @Override
    public Optional<Section> render(String method, ResultLine line, List<CallRecord> calls) {
        return MethodSections.detail(line, MarchDetail.KEY).map(d -> section(d, line));
    }

    private static Section section(MarchDetail d, ResultLine line) {
        int samples = d.claims().stream().mapToInt(c -> c.checkerAnswers().size()).max().orElse(0);
        List<String> columns = new ArrayList<>(List.of("#", "Proposer's question", "claimed answer"));
        for (int i = 1; i <= samples; i++) {
            columns.add("Checker " + i);
        }
        columns.addAll(List.of("vote", "verdict"));
        List<List<String>> rows = new ArrayList<>();
        for (MarchDetail.ClaimDetail c : d.claims()) {
            List<String> row = new ArrayList<>(List.of(String.valueOf(c.number()), c.question(), c.claimedAnswer()));
            for (int i = 0; i < samples; i++) {
                String a = i < c.checkerAnswers().size() ? c.checkerAnswers().get(i) : "";
                row.add(a.isBlank() ? "(no answer)" : a);
            }
            row.add((c.vote() > 0 ? "+" : "") + c.vote());
            row.add(c.verdict());
            rows.add(row);
        }
        List<String> notes = new ArrayList<>();
        notes.add("Verdict: " + verdict(d));
        if (d.attempts() > 1) {
            notes.add(d.attempts() + " responses were checked (policy regenerate); the claims are the last one's.");
        }
        if (!"passed".equals(d.verdict()) && !"no_claims".equals(d.verdict())
                && MarchMethod.ABSTENTION.equals(line.prediction())) {
            notes.add("MARCH withheld the response and answered \"" + MarchMethod.ABSTENTION + "\" (policy abstain).");
        }
        return new Section("MARCH: the response's claims, checked against the documents", rows.isEmpty() ? List.of()
                : columns, rows, notes);
    }

    private static String verdict(MarchDetail d) {
        int n = d.claims().size();
        return switch (d.verdict()) {
            case "passed" -> "passed: the Checker confirmed all " + n + " claim" + (n == 1 ? "" : "s") + ".";
            case "failed" -> "failed: " + d.faults() + " of " + n + " claim" + (n == 1 ? " is a fault" : "s are faults")
                    + " (the Checker's answers outvote the claimed answer).";
            case "no_claims" -> "no claims: the Proposer found nothing to check, so nothing was verified.";
            case "unparseable" -> "unparseable: the Proposer's output could not be read; the response was not checked.";
            default -> d.verdict();
        };
    }
}
