package dev.veracity.eval.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Token-bag F1 as in the SQuAD scripts: {@code Counter(pred) & Counter(gold)}. */
final class TokenF1 {

    private TokenF1() {}

    /** Number of shared tokens counting multiplicity ({@code sum((Counter(p) & Counter(g)).values())}). */
    static int overlap(List<String> pred, List<String> gold) {
        Map<String, Integer> counts = new HashMap<>();
        for (String g : gold) counts.merge(g, 1, Integer::sum);
        int same = 0;
        for (String p : pred) {
            Integer c = counts.get(p);
            if (c != null && c > 0) { same++; counts.put(p, c - 1); }
        }
        return same;
    }

    /** SQuAD v1.1 {@code f1_score}: 0 when nothing is shared, so two empty answers score 0. */
    static double v11(List<String> pred, List<String> gold) {
        int same = overlap(pred, gold);
        if (same == 0) return 0.0;
        return harmonic((double) same / pred.size(), (double) same / gold.size());
    }

    /** SQuAD v2.0 {@code compute_f1}: if either side is empty, 1 when both are empty, else 0. */
    static double v20(List<String> pred, List<String> gold) {
        if (pred.isEmpty() || gold.isEmpty()) return pred.equals(gold) ? 1.0 : 0.0;
        return v11(pred, gold);
    }

    static double harmonic(double p, double r) {
        return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
    }
}
