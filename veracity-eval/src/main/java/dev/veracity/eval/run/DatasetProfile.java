package dev.veracity.eval.run;

import dev.veracity.eval.data.DatasetSpec;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.metrics.Metrics;
import java.util.List;

/**
 * How a dataset is scored and answered: its default metrics (those of its official script) and whether it
 * expects every valid answer of an ambiguous question (MADAM-RAG's datasets).
 *
 * @param metrics     metric names, the first one the headline
 * @param multiAnswer answers are sets in "All Correct Answers: [...]" form, scored against the distinct gold
 *                    answers and the wrong ones
 */
public record DatasetProfile(List<String> metrics, boolean multiAnswer) {

    /**
     * The profile of a dataset name or alias, from its declaration in {@link Datasets} (so {@code nq} is scored as
     * {@code nq-open}); an unknown name is an IllegalArgumentException that lists the known ones.
     */
    public static DatasetProfile of(String dataset) {
        DatasetSpec spec = Datasets.spec(dataset);
        return new DatasetProfile(spec.metrics(), spec.multiAnswer());
    }

    /**
     * The profile scored with these metrics instead (null or empty: the dataset's own); an unknown name is an
     * IllegalArgumentException listing the known ones, here, before a run records them.
     */
    public DatasetProfile withMetrics(List<String> names) {
        if (names == null || names.isEmpty()) {
            return this;
        }
        names.forEach(Metrics::byName);
        return new DatasetProfile(List.copyOf(names), multiAnswer);
    }
}
