package dev.veracity.eval.run;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.judge.JudgeInput;
import dev.veracity.eval.judge.OrderedJudge;
import dev.veracity.eval.judge.Verdict;
import dev.veracity.eval.metrics.ItemScore;
import dev.veracity.eval.metrics.JudgedMetric;
import dev.veracity.eval.metrics.LineScores;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Truthfulness;
import dev.veracity.method.MethodAnswer;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.CallContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One answer scored for its result line: each metric over what it reads ({@link LineScores#input}), and the run's
 * judge, if any. A metric a judge can decide ({@link JudgedMetric}: the truthfulness metrics) is judged in TruthRL's
 * order (exact match, abstention, no box and "invalid question" first, then the judge gold by gold), and its line
 * keeps the judged outcome and what decided it, from which every reader re-aggregates; the line's {@code judge}
 * object then reports that order's verdict (correct, or incorrect for anything else, unparseable when no verdict
 * could be read). Without such a metric the judge grades every prediction against all gold answers, as before.
 */
final class AnswerScores {

    private final List<Metric> metrics;
    private final List<ItemScore> scores;
    private final Judge judge;
    private final OrderedJudge ordered;
    private final ItemScore orderedScore;
    private final Verdict plain;

    private AnswerScores(List<Metric> metrics, List<ItemScore> scores, Judge judge, OrderedJudge ordered,
                         ItemScore orderedScore, Verdict plain) {
        this.metrics = metrics;
        this.scores = scores;
        this.judge = judge;
        this.ordered = ordered;
        this.orderedScore = orderedScore;
        this.plain = plain;
    }

    /**
     * Scores the answer; asks the judge (when not null) as described above.
     *
     * @param gold  the gold answers the metrics score against
     * @param calls the question's call context (the judge's calls get role "judge")
     */
    static AnswerScores of(List<Metric> metrics, Judge judge, QaItem item, MethodAnswer answer, List<String> gold,
                           CallContext calls) {
        List<ItemScore> scores = new ArrayList<>(metrics.size());
        // one judge for the answer: the judged metrics over the raw response and over the answer share its verdicts
        OrderedJudge asked = judge == null ? null : new OrderedJudge(judge, item.question(), item.queryTime(), calls);
        OrderedJudge ordered = null;
        ItemScore orderedScore = null;
        for (Metric metric : metrics) {
            String input = LineScores.input(metric, answer.prediction(), answer.raw());
            if (asked != null && metric instanceof JudgedMetric j) {
                ItemScore s = j.score(input, gold, asked);
                scores.add(s);
                if (ordered == null) {
                    ordered = asked;
                    orderedScore = s;
                }
            } else {
                scores.add(metric.score(input, gold, item.wrong()));
            }
        }
        Verdict plain = null;
        if (judge != null && ordered == null) {
            JudgeInput in = JudgeInput.of(item.question(), answer.prediction(), item.goldForms());
            plain = judge.judge(item.queryTime() == null ? in : in.withQueryTime(item.queryTime()), calls.role("judge"));
        }
        return new AnswerScores(metrics, scores, judge, ordered, orderedScore, plain);
    }

    /** Each metric's score and fields, as {@code name} and {@code name.field}. */
    Map<String, Object> metrics() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < metrics.size(); i++) {
            String name = metrics.get(i).name();
            ItemScore s = scores.get(i);
            m.put(name, s.score());
            s.fields().forEach((k, v) -> m.put(name + "." + k, v));
        }
        return m;
    }

    /** The {@code judge} object, when the run has a judge. */
    ResultLine.Judge judge() {
        if (ordered != null) {
            String outcome = String.valueOf(orderedScore.fields().get("outcome"));
            return new ResultLine.Judge(judge.name(), outcome.equals(Truthfulness.Outcome.CORRECT.label()) ? "CORRECT"
                    : outcome.equals(Truthfulness.Outcome.UNJUDGED.label()) ? "UNPARSEABLE" : "INCORRECT",
                    (long) ordered.unparseableSamples(), ordered.explanation(), "truthrl",
                    String.valueOf(orderedScore.fields().get("decided_by")), ordered.verdicts().size());
        }
        return new ResultLine.Judge(judge.name(), plain.outcome().name(), (long) plain.unparseableSamples(),
                plain.explanation(), null, null, null);
    }
}
