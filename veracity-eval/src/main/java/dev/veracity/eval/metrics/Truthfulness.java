package dev.veracity.eval.metrics;

import dev.veracity.qa.Abstention;
import dev.veracity.qa.BoxedAnswer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TruthRL / CRAG truthfulness. Each item is decided in the order of TruthRL's evaluation ({@link TruthRlOrder},
 * {@link TruthRlOrder.Order#EVALUATION}):
 * <ol>
 *   <li>no {@code \boxed{}} answer ({@link BoxedAnswer}, the last box outside reasoning by default): hallucination
 *       (-1), or neither right nor wrong (0) in the {@link NoBoxPolicy#EXCLUDE} variant;</li>
 *   <li>the boxed answer is an abstention ({@link Abstention}: "I don't know" and its variants): abstention (0, a
 *       miss, not a hallucination);</li>
 *   <li>gold by gold: SQuAD exact match, correct (+1); a false-premise call against a gold that is not "invalid
 *       question", wrong for that gold; otherwise, with a judge ({@link #score(String, List, TruthRlOrder.GoldJudge)},
 *       {@code eval --judge}), the judge's verdict;</li>
 *   <li>no gold matched: hallucination (-1).</li>
 * </ol>
 * Without a judge, exact match decides ({@link #score(String, List, List)}); with one, the item is marked
 * {@code judged} and a result line keeps what decided it ({@code decided_by}: no_box, abstain, em, invalid, judge), so
 * that every reader of the line re-aggregates the judged outcome ({@link #stored}) and never asks the judge again. An
 * item whose judge verdict could not be read is {@code unjudged}: left out of the aggregates and counted.
 *
 * <p>Aggregates follow TruthRL's eval, over n items: accuracy, abstention and hallucination, truthfulness =
 * accuracy - hallucination = (2 * correct + missing - n) / n (also the mean score), and {@code no_box}, the share
 * without a box. The {@code exclude-no-box} variant is the authors' "hallucination (exclude no boxed)": n keeps every
 * item, and those without a box count as neither correct nor hallucination, so its hallucination is
 * (n - correct - missing - no_box) / n.
 */
public final class Truthfulness implements JudgedMetric {

    /**
     * What the metric reads: a whole response whose answer is boxed (TruthRL's evaluation, metric
     * {@code truthfulness}), or a method's extracted answer (metric {@code truthfulness-answer}: any method's
     * prediction, a blank one counting as no answer), so that every method gets the same three-way numbers.
     */
    public enum Input { BOXED_RESPONSE, ANSWER }

    /** What an answer without a box counts as. */
    public enum NoBoxPolicy { HALLUCINATION, EXCLUDE }

    /** The name suffix of the {@link NoBoxPolicy#EXCLUDE} variant. */
    public static final String EXCLUDE_NO_BOX = ":exclude-no-box";

    /** Per-item outcome, written as the {@code outcome} field. */
    public enum Outcome {
        CORRECT("correct"), ABSTAIN("abstain"), HALLUCINATE("hallucinate"), NO_BOX("no_box"), UNJUDGED("unjudged");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static Outcome ofLabel(String label) {
            for (Outcome o : values()) {
                if (o.label.equals(label)) {
                    return o;
                }
            }
            return null;
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

    /**
     * This metric reading the box of a response as {@code mode} says (a run whose method reads its box so:
     * TruthRL's {@code --option box=first|authors}); a metric of extracted answers is returned as it is.
     */
    public Truthfulness withBox(BoxedAnswer.Mode mode) {
        return input == Input.ANSWER || mode == null || mode == box ? this : new Truthfulness(input, noBox, mode);
    }

    /** {@code truthfulness-answer}: over methods' extracted answers. */
    public static Truthfulness ofAnswers() {
        return ofAnswers(NoBoxPolicy.HALLUCINATION);
    }

    /** {@code truthfulness-answer} with either no-box policy (a blank answer is "no box"). */
    public static Truthfulness ofAnswers(NoBoxPolicy noBox) {
        return new Truthfulness(Input.ANSWER, noBox, BoxedAnswer.DEFAULT);
    }

    @Override
    public String name() {
        return (input == Input.ANSWER ? "truthfulness-answer" : "truthfulness")
                + (noBox == NoBoxPolicy.EXCLUDE ? EXCLUDE_NO_BOX : "");
    }

    /** {@code truthfulness} reads the whole response (its box), {@code truthfulness-answer} the extracted answer. */
    @Override
    public Reads reads() {
        return input == Input.BOXED_RESPONSE ? Reads.RESPONSE : Reads.PREDICTION;
    }

    /** What a prediction commits to, read as this metric reads it. */
    public Abstention.Reading read(String prediction) {
        return input == Input.ANSWER
                ? new Abstention.Reading(Abstention.ofAnswer(prediction), prediction == null ? "" : prediction.strip())
                : Abstention.ofBoxed(prediction, box);
    }

    /** The outcome of one prediction by exact match. */
    public Outcome outcome(String prediction, List<String> gold) {
        return outcome(TruthRlOrder.grade(read(prediction), gold, TruthRlOrder.Order.EVALUATION, null));
    }

    /** The metric's outcome of a graded response. */
    public Outcome outcome(TruthRlOrder.Graded g) {
        return switch (g.kind()) {
            case CORRECT -> Outcome.CORRECT;
            case ABSTAIN -> Outcome.ABSTAIN;
            case WRONG -> Outcome.HALLUCINATE;
            case NO_ANSWER -> noBox == NoBoxPolicy.EXCLUDE ? Outcome.NO_BOX : Outcome.HALLUCINATE;
            case UNJUDGED -> Outcome.UNJUDGED;
        };
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
        return item(TruthRlOrder.grade(read(prediction), gold, TruthRlOrder.Order.EVALUATION, null), prediction, false);
    }

    @Override
    public ItemScore score(String prediction, List<String> gold, TruthRlOrder.GoldJudge judge) {
        return item(TruthRlOrder.grade(read(prediction), gold, TruthRlOrder.Order.EVALUATION, judge), prediction, true);
    }

    /**
     * The score a result line stored when it is one a reader cannot take again from the line: judged ({@code judged}
     * true, with its {@code outcome} and {@code decided_by}), or read with another {@code box} mode than this metric's
     * (the run's method read its box so); else empty: the line is scored from its response.
     */
    @Override
    public Optional<ItemScore> stored(Map<String, Object> fields) {
        boolean otherBox = fields.containsKey("box") && !box.name().toLowerCase(java.util.Locale.ROOT)
                .equals(String.valueOf(fields.get("box")));
        if (!Boolean.TRUE.equals(fields.get("judged")) && !otherBox) {
            return Optional.empty(); // scored again from the line, as this metric reads it
        }
        // judged, or read with another box than this metric's (its method's box option): the line's outcome stands
        Outcome o = Outcome.ofLabel(String.valueOf(fields.get("outcome")));
        TruthRlOrder.Decided d = TruthRlOrder.Decided.ofLabel(String.valueOf(fields.get("decided_by")));
        if (o == null || d == null) {
            return Optional.empty();
        }
        if (d == TruthRlOrder.Decided.NO_BOX) {
            o = noBox == NoBoxPolicy.EXCLUDE ? Outcome.NO_BOX : Outcome.HALLUCINATE; // the policy is this metric's
        }
        Map<String, Object> kept = new LinkedHashMap<>(fields);
        kept.put("outcome", o.label());
        return Optional.of(new ItemScore(value(o), kept, o != Outcome.UNJUDGED));
    }

    private ItemScore item(TruthRlOrder.Graded g, String prediction, boolean judged) {
        Outcome o = outcome(g);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("outcome", o.label());
        fields.put("decided_by", g.decidedBy().label());
        if (input == Input.BOXED_RESPONSE) {
            fields.put("boxed", BoxedAnswer.extract(prediction, box).isPresent());
            fields.put("box", box.name().toLowerCase(java.util.Locale.ROOT)); // readers of the line read it so
        }
        if (judged) {
            fields.put("judged", true);
            fields.put("judge_calls", g.judgeCalls());
        }
        return new ItemScore(value(o), fields, o != Outcome.UNJUDGED);
    }

    private static double value(Outcome o) {
        return switch (o) {
            case CORRECT -> 1.0;
            case ABSTAIN, NO_BOX, UNJUDGED -> 0.0;
            case HALLUCINATE -> -1.0;
        };
    }

    @Override
    public Tally tally() {
        Aggregate.MeanTally t = new Aggregate.MeanTally(name()) {
            @Override
            public Aggregate result() {
                Aggregate a = super.result();
                Map<String, Number> extras = new LinkedHashMap<>(a.extras());
                double truth = extras.get("accuracy").doubleValue() - extras.get("hallucination").doubleValue();
                Number noBoxShare = extras.remove("no_box");
                Number unjudged = extras.remove("unjudged");
                extras.put("truthfulness", truth);
                extras.put("no_box", noBoxShare);
                extras.put("unjudged", unjudged);
                return new Aggregate(a.metric(), a.n(), a.mean(), extras);
            }
        };
        return t.mean("accuracy", i -> i.score() == 1.0 ? 1 : 0)
                .mean("abstention", i -> "abstain".equals(i.fields().get("outcome")) ? 1 : 0)
                .mean("hallucination", i -> i.score() == -1.0 ? 1 : 0)
                .mean("no_box", i -> "no_box".equals(i.fields().get("decided_by")) ? 1 : 0)
                .count("unjudged", i -> !i.counted());
    }
}
