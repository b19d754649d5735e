package dev.veracity.eval.run;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.Summary;
import dev.veracity.method.Truncation;

/** summary.json's {@code truncated}, folded one result line at a time. */
final class TruncationTally {
    private long questions;
    private long samples;
    private long answers;

    void add(ResultLine line) {
        ResultLine.Cut t = line.truncated();
        if (t != null) {
            questions++;
            samples += t.samples();
            answers += t.answer() ? 1 : 0;
        }
    }

    /**
     * {@code {"questions", "samples", "answers", "failed", "policy"}}: answered questions with a cut output, the
     * cut samples, the answers scored although read from a cut output ({@link Truncation.Policy#KEEP}), and the
     * questions recorded as failed for a cut ({@code failed}, kind TRUNCATED: their answer's or, after every retry, a
     * server's cut).
     */
    Summary.Truncated result(long failed, Truncation.Policy policy) {
        return new Summary.Truncated(questions, samples, answers, failed, policy.label());
    }
}
