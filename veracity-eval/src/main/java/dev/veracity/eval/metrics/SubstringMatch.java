package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PopQA / C-3PO accuracy: 1 when some SQuAD-normalised gold answer is a substring of the normalised prediction
 * (C-3PO {@code normalize_answer(gold) in normalize_answer(response)}).
 * <p>{@code substring} is the official script as it is: a gold answer that normalises to the empty string (e.g.
 * {@code "A+"}, {@code "the"}) is a substring of anything in Python, so it credits every prediction. Scores stay
 * comparable with the papers that way. {@code substring:strict} skips such gold answers (UltraRAG fixed the same bug
 * in its own scorer). Both count the questions that have such a gold answer ({@code empty_gold} in the aggregate)
 * so that a reader sees how much the official rule inflates a score.
 */
public final class SubstringMatch implements Metric {

    private final boolean strict;

    public SubstringMatch(boolean strict) {
        this.strict = strict;
    }

    @Override
    public String name() {
        return strict ? "substring:strict" : "substring";
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
        String p = AnswerNormalizer.squad(prediction);
        boolean emptyGold = false;
        boolean hit = false;
        if (gold != null) {
            for (String g : gold) {
                String n = AnswerNormalizer.squad(g);
                emptyGold |= n.isEmpty();
                hit |= (!strict || !n.isEmpty()) && p.contains(n);
            }
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("empty_gold", emptyGold);
        return new ItemScore(hit ? 1.0 : 0.0, fields, true);
    }

    @Override
    public Tally tally() {
        return new Aggregate.MeanTally(name()).count("empty_gold", i -> Boolean.TRUE.equals(i.fields().get("empty_gold")));
    }
}
