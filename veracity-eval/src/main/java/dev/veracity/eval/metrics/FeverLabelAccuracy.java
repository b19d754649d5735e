package dev.veracity.eval.metrics;

import java.util.List;
import java.util.Optional;

/**
 * FEVER label accuracy (the label part of the FEVER scorer): 1 when the prediction's label equals a gold label,
 * both read with {@link FeverLabel#parse(String)}; an unreadable prediction scores 0.
 */
public final class FeverLabelAccuracy implements Metric {

    @Override
    public String name() {
        return "fever-acc";
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
        Optional<FeverLabel> p = FeverLabel.parse(prediction);
        if (p.isEmpty() || gold == null) return ItemScore.of(0.0);
        for (String g : gold) {
            if (FeverLabel.parse(g).equals(p)) return ItemScore.of(1.0);
        }
        return ItemScore.of(0.0);
    }
}
