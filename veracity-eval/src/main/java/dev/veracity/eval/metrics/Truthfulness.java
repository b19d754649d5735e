package dev.veracity.eval.metrics;

import dev.veracity.qa.Abstention;
import dev.veracity.qa.AnswerNormalizer;
import dev.veracity.qa.BoxedAnswer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TruthRL / CRAG truthfulness without an LLM judge. Per item, in the order of TruthRL's reward:
 * <ol>
 *   <li>no {@code \boxed{}} answer ({@link BoxedAnswer}, the last box outside reasoning by default): hallucination
 *       (-1), or excluded from the aggregates in the {@link NoBoxPolicy#EXCLUDE} variant;</li>
 *   <li>the boxed answer is an abstention ({@link Abstention}: "I don't know" and its variants): abstention (0, a
 *       miss, not a hallucination);</li>
 *   <li>SQuAD exact match with any gold answer: correct (+1);</li>
 *   <li>otherwise hallucination (-1).</li>
 * </ol>
 * Aggregates follow TruthRL's eval: accuracy, abstention, hallucination (each over the counted items) and
 * truthfulness = accuracy - hallucination = (2 * correct + missing - n) / n, which is also the mean score.
 */
public final class Truthfulness implements Metric {

    /**
     * What the metric reads: a whole response whose answer is boxed (TruthRL's evaluation, metric
     * {@code truthfulness}), or a method's extracted answer (metric {@code truthfulness-answer}: any method's
     * prediction, a blank one counting as no answer), so that every method gets the same three-way numbers.
     */
    public enum Input { BOXED_RESPONSE, ANSWER }

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

    private final Input input;
    private final NoBoxPolicy noBox;
    private final BoxedAnswer.Mode box;

    /** The default: no box counts as hallucination (TruthRL's eval), the last box is the answer. */
    public Truthfulness() {
        this(NoBoxPolicy.HALLUCINATION);
    }

    public Truthfulness(NoBoxPolicy noBox) {
        this(noBox, BoxedAnswer.DEFAULT);
    }

    public Truthfulness(NoBoxPolicy noBox, BoxedAnswer.Mode box) {
        this(Input.BOXED_RESPONSE, noBox, box);
    }

    public Truthfulness(Input input, NoBoxPolicy noBox, BoxedAnswer.Mode box) {
        this.input = input;
        this.noBox = noBox;
        this.box = box;
    }

    /** {@code truthfulness-answer}: over methods' extracted answers. */
    public static Truthfulness ofAnswers() {
        return new Truthfulness(Input.ANSWER, NoBoxPolicy.HALLUCINATION, BoxedAnswer.DEFAULT);
    }

    @Override
    public String name() {
        return input == Input.ANSWER ? "truthfulness-answer" : "truthfulness";
    }

    /** The outcome of one prediction. */
    public Outcome outcome(String prediction, List<String> gold) {
        Abstention.Reading r = input == Input.ANSWER
                ? new Abstention.Reading(Abstention.ofAnswer(prediction), prediction == null ? "" : prediction.strip())
                : Abstention.ofBoxed(prediction, box);
        if (r.kind() == Abstention.Kind.NO_ANSWER) return noBox == NoBoxPolicy.EXCLUDE ? Outcome.NO_BOX : Outcome.HALLUCINATE;
        if (r.kind() == Abstention.Kind.ABSTAIN) return Outcome.ABSTAIN;
        if (gold != null && r.kind() == Abstention.Kind.INVALID_PREMISE) {
            // a false-premise call, however worded, is right when the gold answer is "invalid question"
            for (String g : gold) {
                if (AnswerNormalizer.squad(g).equals("invalid question")) return Outcome.CORRECT;
            }
        }
        if (gold != null) {
            for (String g : gold) {
                // a boxed "invalid question" against a gold "invalid question" is correct here (TruthRL's eval)
                if (SquadEval.exactMatch(r.answer(), AnswerNormalizer.text(g)) == 1.0) return Outcome.CORRECT;
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
        if (input == Input.BOXED_RESPONSE) {
            fields.put("boxed", BoxedAnswer.extract(prediction, box).isPresent());
        }
        return new ItemScore(s, fields, o != Outcome.NO_BOX);
    }

    @Override
    public Tally tally() {
        Aggregate.MeanTally t = new Aggregate.MeanTally(name()) {
            @Override
            public Aggregate result() {
                Aggregate a = super.result();
                Map<String, Number> extras = new LinkedHashMap<>(a.extras());
                extras.put("truthfulness", extras.get("accuracy").doubleValue() - extras.get("hallucination").doubleValue());
                extras.put("excluded_no_box", items() - a.n());
                return new Aggregate(a.metric(), a.n(), a.mean(), extras);
            }
        };
        return t.mean("accuracy", i -> i.score() == 1.0 ? 1 : 0)
                .mean("abstention", i -> "abstain".equals(i.fields().get("outcome")) ? 1 : 0)
                .mean("hallucination", i -> i.score() == -1.0 ? 1 : 0);
    }
}
