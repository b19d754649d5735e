package dev.veracity.eval.run;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.Summary;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.qa.AnswerNormalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reasoning Court's Table 3: the judge's accuracy by what its agents answered, over questions with gold answers and
 * two or more candidates ({@code candidates} in the result lines). Scenarios, by the run's headline metric (a
 * candidate or prediction is right when it scores 1: EM for HotpotQA, label accuracy for FEVER):
 * <ul>
 *   <li>{@code one_correct}: some agents right, some wrong (the paper's first scenario: one correct, one incorrect);</li>
 *   <li>{@code all_wrong_different}: every agent wrong, not all with the same answer, empty answers included (the
 *       second: both fail; the judge can only be right by synthesising);</li>
 *   <li>{@code all_wrong_same}: every agent wrong with the same (normalised) answer (the third: incorrect consensus);</li>
 *   <li>{@code all_correct}: every agent right (not in the paper's table; shown for completeness).</li>
 * </ul>
 * Each gets its cases, correct final answers and accuracy.
 */
public final class JudgeScenarios {

    public static final List<String> NAMES = List.of("one_correct", "all_wrong_different", "all_wrong_same", "all_correct");

    private JudgeScenarios() {
    }

    /** The scenario of one result line, or null when it has fewer than two candidates or no gold answer. */
    static String scenario(ResultLine line, Metric metric) {
        List<ResultLine.Candidate> cands = line.candidates() == null ? List.of() : line.candidates();
        List<String> gold = line.goldOrEmpty();
        if (cands.size() < 2 || gold.stream().allMatch(g -> AnswerNormalizer.squad(g).isEmpty() && g.isBlank())) {
            return null;
        }
        List<String> wrong = line.wrong() == null ? List.of() : line.wrong();
        int right = 0;
        Set<String> answers = new HashSet<>();
        for (ResultLine.Candidate c : cands) {
            String a = c.answer() == null ? "" : c.answer();
            if (metric.score(a, gold, wrong).score() >= 1.0) {
                right++;
            }
            answers.add(AnswerNormalizer.squad(a));
        }
        if (right == cands.size()) {
            return "all_correct";
        }
        if (right > 0) {
            return "one_correct";
        }
        return answers.size() == 1 && !answers.iterator().next().isEmpty() ? "all_wrong_same" : "all_wrong_different";
    }

    /** summary.json's {@code judge_scenarios}, or null when no line has candidates and gold. */
    public static Summary.Scenarios of(List<ResultLine> lines, Metric metric) {
        Tally t = new Tally(metric);
        lines.forEach(t::add);
        return t.result();
    }

    /** {@link #of} folded one result line at a time: constant memory over a file of any length. */
    static final class Tally {
        private final Metric metric;
        private final int[] cases = new int[NAMES.size()];
        private final int[] correct = new int[NAMES.size()];
        private boolean any;

        Tally(Metric metric) {
            this.metric = metric;
        }

        void add(ResultLine l) {
            String s = scenario(l, metric);
            if (s == null) {
                return;
            }
            any = true;
            int i = NAMES.indexOf(s);
            cases[i]++;
            if (dev.veracity.eval.metrics.LineScores.of(metric, l).score() >= 1.0) {
                correct[i]++;
            }
        }

        /** The scenarios, or null when no line had candidates and gold. */
        Summary.Scenarios result() {
            if (!any) {
                return null;
            }
            return new Summary.Scenarios(metric.name(), figures(0), figures(1), figures(2), figures(3));
        }

        private Summary.Scenario figures(int i) {
            return new Summary.Scenario(cases[i], correct[i], cases[i] == 0 ? null : (double) correct[i] / cases[i]);
        }
    }
}
