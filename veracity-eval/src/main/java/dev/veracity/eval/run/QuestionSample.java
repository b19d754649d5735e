package dev.veracity.eval.run;

import java.util.ArrayList;
import java.util.List;

/**
 * A paper's random selection of evaluation questions, made the way the papers' code makes it: CPython's
 * {@code random.Random(seed).shuffle(list(range(range)))}, then the first {@code n} indices (indices into the
 * dataset file's questions in file order). ReAct and Reasoning Court: {@code n=500, seed=233, range=7405}.
 *
 * @param n     questions in the sample
 * @param seed  the shuffle's seed
 * @param range the length of the shuffled index list (0 = the file's question count); the papers' code fixes it
 *              (ReAct uses 7405 for FEVER's 9999 claims too)
 */
public record QuestionSample(int n, long seed, int range) {

    public QuestionSample {
        if (n < 1) {
            throw new IllegalArgumentException("a sample needs n >= 1, was " + n);
        }
        if (range < 0) {
            throw new IllegalArgumentException("a sample's range must be >= 0, was " + range);
        }
    }

    /** The chosen items, in sample order (so that a limit takes a prefix of the sample and extends it later). */
    public <T> List<T> select(List<T> items) {
        int size = range == 0 ? items.size() : range;
        if (size > items.size()) {
            throw new IllegalArgumentException("the sample shuffles indices 0.." + (size - 1) + " but the file has "
                    + items.size() + " questions; is it the paper's split?");
        }
        if (n > size) {
            throw new IllegalArgumentException("a sample of " + n + " from " + size + " questions is not possible");
        }
        int[] order = PythonRandom.shuffledRange(seed, size);
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(items.get(order[i]));
        }
        return out;
    }

    /** How run.json and summary.json record it. */
    public String describe() {
        return "python random.Random(" + seed + ").shuffle(range(" + (range == 0 ? "file" : String.valueOf(range))
                + "))[:" + n + "]";
    }
}
