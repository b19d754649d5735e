package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;
import dev.veracity.qa.AnswerSetParser;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MADAM-RAG (RAMDocs) strict accuracy for multi-answer questions, with precision / recall / F1 over answer sets.
 * The authors ship no metric; this follows the paper: the prediction is the set read by {@link AnswerSetParser};
 * a predicted answer matches a reference answer when, after the SQuAD normalisation, either contains the other
 * (answers that normalise to nothing match nothing). Strict = 1 when every gold answer is matched and no wrong
 * answer is matched by any predicted answer.
 * <ul>
 *   <li>precision = predicted answers matching some gold / predicted answers;</li>
 *   <li>recall = gold answers matched / gold answers;</li>
 *   <li>F1 = harmonic mean (0 when both are 0).</li>
 * </ul>
 * Edge cases: no gold answers gives recall 1; no predicted answers gives precision 1 when there is no gold, else 0.
 */
public final class StrictMultiAnswer implements Metric {

    @Override
    public String name() {
        return "strict-multi";
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
        Set<String> pred = normalizedSet(AnswerSetParser.parse(prediction));
        Set<String> golds = normalizedSet(gold);
        Set<String> wrongs = normalizedSet(wrong);
        long goldMatched = golds.stream().filter(g -> pred.stream().anyMatch(p -> matches(p, g))).count();
        long predCorrect = pred.stream().filter(p -> golds.stream().anyMatch(g -> matches(p, g))).count();
        boolean wrongHit = wrongs.stream().anyMatch(w -> pred.stream().anyMatch(p -> matches(p, w)));
        double precision = pred.isEmpty() ? (golds.isEmpty() ? 1.0 : 0.0) : (double) predCorrect / pred.size();
        double recall = golds.isEmpty() ? 1.0 : (double) goldMatched / golds.size();
        double strict = goldMatched == golds.size() && !wrongHit ? 1.0 : 0.0;
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("precision", precision);
        fields.put("recall", recall);
        fields.put("f1", TokenF1.harmonic(precision, recall));
        fields.put("wrong_matched", wrongHit);
        return new ItemScore(strict, fields, true);
    }

    @Override
    public Tally tally() {
        Aggregate.MeanTally t = new Aggregate.MeanTally(name());
        for (String k : List.of("precision", "recall", "f1")) {
            t.mean(k, i -> ((Number) i.fields().getOrDefault(k, 0.0)).doubleValue());
        }
        return t;
    }

    /** Normalised containment either way; the empty string matches nothing. */
    static boolean matches(String a, String b) {
        return !a.isEmpty() && !b.isEmpty() && (a.contains(b) || b.contains(a));
    }

    private static Set<String> normalizedSet(List<String> answers) {
        Set<String> out = new LinkedHashSet<>();
        if (answers != null) {
            for (String a : answers) {
                String n = AnswerNormalizer.squad(a);
                if (!n.isEmpty()) out.add(n);
            }
        }
        return out;
    }
}
