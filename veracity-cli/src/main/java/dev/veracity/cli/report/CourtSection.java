package dev.veracity.cli.report;

import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.methods.court.CourtDetail;
import dev.veracity.trace.CallRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reasoning Court's decision: every agent's answer and whether the judge chose it, each agent's trajectory (Thought /
 * Action / Observation per step) as a block, and how the judge reached the final answer (selected, synthesised, or its
 * fallback).
 */
final class CourtSection implements QuestionSection {

    @Override
    public String name() {
        return "court";
    }

    /** Its agents' table shows every candidate with the judge's choice: the built-in candidates table would repeat it. */
    @Override
    public java.util.Set<String> replaces() {
        return java.util.Set.of("candidates");
    }

    @Override
    public Optional<Section> render(String method, ResultLine line, List<CallRecord> calls) {
        return MethodSections.detail(line, CourtDetail.KEY).map(CourtSection::section);
    }

    private static Section section(CourtDetail d) {
        CourtDetail.JudgeDetail judge = d.judge();
        List<List<String>> rows = new ArrayList<>();
        List<Block> blocks = new ArrayList<>();
        for (CourtDetail.TrajectoryDetail t : d.trajectories()) {
            boolean chosen = judge != null && judge.choice() == CourtDetail.Choice.SELECTED && judge.agent().equals(t.agent());
            rows.add(List.of(t.agent(), t.answer(), String.valueOf(t.steps().size()),
                    t.forced() ? "stopped at the step limit" : "finished", chosen ? "chosen by the judge" : ""));
            List<List<String>> steps = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            for (CourtDetail.StepDetail s : t.steps()) {
                steps.add(List.of(String.valueOf(s.index()), s.thought(), s.action(), s.observation()));
                if (!s.failure().isEmpty()) {
                    failures.add("Step " + s.index() + " had no usable action: " + s.failure() + ".");
                }
            }
            List<String> notes = new ArrayList<>(failures);
            notes.add(t.forced() ? "Stopped at the step limit without an answer." : "Answer: " + MethodSections.quoted(t.answer()));
            blocks.add(new Block("Trajectory of " + t.agent(), steps.isEmpty() ? List.of()
                    : List.of("step", "thought", "action", "observation"), steps, notes));
        }
        return new Section("Reasoning Court: the agents' trajectories and the judge's choice",
                List.of("agent", "answer", "steps", "how it ended", "judge"), rows, List.of(judge(judge)), blocks);
    }

    private static String judge(CourtDetail.JudgeDetail j) {
        if (j == null) {
            return "No judge (court-no-judge): the first agent's answer is the answer.";
        }
        return switch (j.choice()) {
            case SELECTED -> "The judge selected " + j.agent() + "'s answer: " + MethodSections.quoted(j.answer()) + ".";
            case SYNTHESISED -> "The judge synthesised an answer of its own, no agent's: " + MethodSections.quoted(j.answer())
                    + ".";
            case FALLBACK -> "The judge's output held no usable Complete[...]; the agents' majority answer was taken: "
                    + MethodSections.quoted(j.answer()) + ".";
        };
    }
}
