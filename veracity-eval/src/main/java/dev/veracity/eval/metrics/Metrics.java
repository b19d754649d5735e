package dev.veracity.eval.metrics;

import dev.veracity.qa.BoxedAnswer;
import dev.veracity.text.ReasoningBlocks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The registry of metrics by benchmark name. */
public final class Metrics {

    private static final Map<String, Supplier<Metric>> REGISTRY = new LinkedHashMap<>();

    static {
        REGISTRY.put("em", () -> new AliasMaxMetric("em", SquadEval::exactMatch));
        REGISTRY.put("f1", () -> new AliasMaxMetric("f1", HotpotEval::f1));
        REGISTRY.put("nq-em", () -> new AliasMaxMetric("nq-em", NqOpenEval::exactMatch));
        REGISTRY.put("triviaqa-em", () -> new AliasMaxMetric("triviaqa-em", TriviaQaEval::exactMatch));
        REGISTRY.put("triviaqa-f1", () -> new AliasMaxMetric("triviaqa-f1", TriviaQaEval::f1));
        REGISTRY.put("musique-em", () -> new AliasMaxMetric("musique-em", MusiqueEval::exactMatch));
        REGISTRY.put("musique-f1", () -> new AliasMaxMetric("musique-f1", MusiqueEval::f1));
        REGISTRY.put("substring", () -> new SubstringMatch(false));
        REGISTRY.put("substring:strict", () -> new SubstringMatch(true));
        REGISTRY.put("fever-acc", FeverLabelAccuracy::new);
        REGISTRY.put("strict-multi", StrictMultiAnswer::new);
        REGISTRY.put("truthfulness", Truthfulness::new);
        REGISTRY.put("truthfulness-answer", Truthfulness::ofAnswers);
        REGISTRY.put("truthfulness" + Truthfulness.EXCLUDE_NO_BOX, () -> new Truthfulness(Truthfulness.NoBoxPolicy.EXCLUDE));
        REGISTRY.put("truthfulness-answer" + Truthfulness.EXCLUDE_NO_BOX,
                () -> Truthfulness.ofAnswers(Truthfulness.NoBoxPolicy.EXCLUDE));
    }

    private Metrics() {}

    /** The valid names, in registry order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    /**
     * The metric with this exact name. Every metric scores the prediction with reasoning blocks removed
     * ({@link ReasoningBlocks}): a box or an answer inside {@code <think>} is not the answer.
     *
     * @throws IllegalArgumentException naming the unknown metric and listing the valid names
     */
    public static Metric byName(String name) {
        Supplier<Metric> s = name == null ? null : REGISTRY.get(name);
        if (s == null) {
            throw new IllegalArgumentException(
                    "unknown metric '" + name + "'; valid metrics: " + String.join(", ", REGISTRY.keySet()));
        }
        Metric m = s.get();
        return m instanceof JudgedMetric j ? new JudgedWithoutReasoning(j) : new WithoutReasoning(m);
    }

    /**
     * The metric of that name as a run's method reads its answers: a metric of boxed responses reads the box the way
     * the method's {@code box} option says (TruthRL's {@code last}, {@code first} or {@code authors}), so that
     * {@code truthfulness} and the method's own prediction agree.
     *
     * @param methodOptions the run's resolved method options
     */
    public static Metric byName(String name, Map<String, String> methodOptions) {
        String box = methodOptions == null ? null : methodOptions.get("box");
        Supplier<Metric> s = name == null ? null : REGISTRY.get(name);
        if (box == null || s == null || !(s.get() instanceof Truthfulness t)) {
            return byName(name);
        }
        BoxedAnswer.Mode mode;
        try {
            mode = BoxedAnswer.Mode.valueOf(box.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return byName(name); // not a box mode: the method refuses it before any run
        }
        return new JudgedWithoutReasoning(t.withBox(mode));
    }

    /** A metric that reads the prediction without its reasoning blocks. */
    private record WithoutReasoning(Metric metric) implements Metric {
        @Override
        public String name() {
            return metric.name();
        }

        @Override
        public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
            return metric.score(ReasoningBlocks.strip(prediction), gold, wrong);
        }

        @Override
        public Aggregate aggregate(List<ItemScore> items) {
            return metric.aggregate(items);
        }

        @Override
        public Tally tally() {
            return metric.tally();
        }

        @Override
        public Reads reads() {
            return metric.reads();
        }
    }

    /** The same for a metric a judge can decide. */
    private record JudgedWithoutReasoning(JudgedMetric metric) implements JudgedMetric {
        @Override
        public String name() {
            return metric.name();
        }

        @Override
        public ItemScore score(String prediction, List<String> gold, List<String> wrong) {
            return metric.score(ReasoningBlocks.strip(prediction), gold, wrong);
        }

        @Override
        public ItemScore score(String prediction, List<String> gold, TruthRlOrder.GoldJudge judge) {
            return metric.score(ReasoningBlocks.strip(prediction), gold, judge);
        }

        @Override
        public java.util.Optional<ItemScore> stored(Map<String, Object> fields) {
            return metric.stored(fields);
        }

        @Override
        public Aggregate aggregate(List<ItemScore> items) {
            return metric.aggregate(items);
        }

        @Override
        public Tally tally() {
            return metric.tally();
        }

        @Override
        public Reads reads() {
            return metric.reads();
        }
    }
}
