package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;
import java.util.List;

/**
 * PopQA / C-3PO accuracy: 1 when some SQuAD-normalised gold answer is a substring of the normalised prediction
 * (C-3PO {@code normalize_answer(gold) in normalize_answer(response)}). Deliberate deviation: a gold answer that
 * normalises to the empty string (e.g. {@code "the"}) is skipped, since Python's {@code "" in s} would credit
 * every prediction.
 */
public final class SubstringMatch implements Metric {

    @Override
    public String name() {
        return "substring";
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
        String p = AnswerNormalizer.squad(prediction);
        if (gold != null) {
            for (String g : gold) {
                String n = AnswerNormalizer.squad(g);
                if (!n.isEmpty() && p.contains(n)) return ItemScore.of(1.0);
            }
        }
        return ItemScore.of(0.0);
    }
}
