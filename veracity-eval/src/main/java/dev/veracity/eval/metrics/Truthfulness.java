package dev.veracity.eval.metrics;

import dev.veracity.qa.AnswerNormalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TruthRL / CRAG truthfulness without an LLM judge. Per item, in the order of TruthRL's reward:
 * <ol>
 *   <li>no {@code \boxed{}} answer ({@link BoxedAnswer}): hallucination (-1), or excluded from the aggregates in
 *       the {@link NoBoxPolicy#EXCLUDE} variant;</li>
 *   <li>the boxed answer, SQuAD-normalised (curly apostrophes read as {@code '}), contains "i dont know" or
 *       "i do not know": abstention (0, a miss, not a hallucination);</li>
 *   <li>SQuAD exact match with any gold answer: correct (+1);</li>
 *   <li>otherwise hallucination (-1).</li>
 * </ol>
 * Aggregates follow TruthRL's eval: accuracy, abstention, hallucination (each over the counted items) and
 * truthfulness = accuracy - hallucination = (2 * correct + missing - n) / n, which is also the mean score.
 */
public final class Truthfulness implements Metric {

    /** What an answer without a box counts as. */
    public enum NoBoxPolicy { HALLUCINATION, EXCLUDE }

    /** Per-item outcome, written as the {@code outcome} field. */
    public enum Outcome {
        CORRECT("correct"), ABSTAIN("abstain"), HALLUCINATE("hallucinate"), NO_BOX("no_box");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private static final List<String> ABSTAIN_PHRASES = List.of("i dont know", "i do not know");

    private final NoBoxPolicy noBox;

    /** The default: no box counts as hallucination (TruthRL's eval). */
    public Truthfulness() {
        this(NoBoxPolicy.HALLUCINATION);
    }

    public Truthfulness(NoBoxPolicy noBox) {
        this.noBox = noBox;
    }

    @Override
    public String name() {
        return "truthfulness";
    }

    /** The outcome of one prediction. */
    public Outcome outcome(String prediction, List<String> gold) {
        Optional<String> boxed = BoxedAnswer.extract(prediction);
        if (boxed.isEmpty()) return noBox == NoBoxPolicy.EXCLUDE ? Outcome.NO_BOX : Outcome.HALLUCINATE;
        String answer = boxed.get();
        String norm = AnswerNormalizer.squad(answer.replace('\u2019', '\'').replace('\u2018', '\''));
        for (String phrase : ABSTAIN_PHRASES) {
            if (norm.contains(phrase)) return Outcome.ABSTAIN;
        }
        if (gold != null) {
            for (String g : gold) {
                if (SquadEval.exactMatch(answer, AnswerNormalizer.text(g)) == 1.0) return Outcome.CORRECT;
            }
        }
        return Outcome.HALLUCINATE;
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
        Outcome o = outcome(prediction, gold);
        double s = switch (o) {
            case CORRECT -> 1.0;
            case ABSTAIN, NO_BOX -> 0.0;
            case HALLUCINATE -> -1.0;
        };
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("outcome", o.label());
        fields.put("boxed", BoxedAnswer.extract(prediction).isPresent());
        return new ItemScore(s, fields, o != Outcome.NO_BOX);
    }

    @Override
    public Aggregate aggregate(List<ItemScore> items) {
        List<ItemScore> counted = items.stream().filter(ItemScore::counted).toList();
        double accuracy = Aggregate.meanOf(counted, i -> i.score() == 1.0 ? 1 : 0);
        double abstention = Aggregate.meanOf(counted, i -> "abstain".equals(i.fields().get("outcome")) ? 1 : 0);
        double hallucination = Aggregate.meanOf(counted, i -> i.score() == -1.0 ? 1 : 0);
        Map<String, Number> extras = new LinkedHashMap<>();
        extras.put("accuracy", accuracy);
        extras.put("abstention", abstention);
        extras.put("hallucination", hallucination);
        extras.put("truthfulness", accuracy - hallucination);
        extras.put("excluded_no_box", items.size() - counted.size());
        return new Aggregate(name(), counted.size(), Aggregate.meanOf(counted, ItemScore::score), extras);
    }
}
