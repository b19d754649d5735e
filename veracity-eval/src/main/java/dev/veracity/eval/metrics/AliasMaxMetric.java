package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;
import java.util.List;
import java.util.Objects;

/**
 * A per-answer score maximised over the gold aliases, as the scripts' {@code metric_max_over_ground_truths}.
 * No gold answer gives 0 (where Python's {@code max([])} would raise).
 */
public final class AliasMaxMetric implements Metric {

    /** A score of a prediction against one gold answer. */
    @FunctionalInterface
    public interface PairScore {
        double score(String prediction, String gold);
    }

    private final String name;
    private final PairScore pair;

    public AliasMaxMetric(String name, PairScore pair) {
        this.name = Objects.requireNonNull(name);
        this.pair = Objects.requireNonNull(pair);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
        double best = 0.0;
        if (gold != null) {
            for (String g : gold) best = Math.max(best, pair.score(AnswerNormalizer.text(prediction), AnswerNormalizer.text(g)));
        }
        return ItemScore.of(best);
    }
}
