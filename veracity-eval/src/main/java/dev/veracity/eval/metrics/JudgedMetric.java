package dev.veracity.eval.metrics;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A metric whose correctness an LLM judge can decide where exact match does not, in TruthRL's order
 * ({@link TruthRlOrder}): the truthfulness metrics with {@code eval --judge}. The judged score is taken when the
 * answer is scored and kept in its result line; every later reader of the line takes it from there
 * ({@link #stored}, {@link LineScores}) and never asks the judge again.
 */
public interface JudgedMetric extends Metric {

    /** Scores one prediction, asking {@code judge} where the order leaves correctness to it. */
    ItemScore score(String prediction, List<String> gold, TruthRlOrder.GoldJudge judge);

    /**
     * The item's judged score from the fields a result line stored under this metric's name (without the
     * {@code name.} prefix), or empty when they hold no judged score (the line is then scored from its prediction).
     */
    Optional<ItemScore> stored(Map<String, Object> fields);
}
