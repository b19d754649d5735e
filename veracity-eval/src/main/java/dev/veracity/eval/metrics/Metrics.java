package dev.veracity.eval.metrics;

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
        REGISTRY.put("substring", SubstringMatch::new);
        REGISTRY.put("fever-acc", FeverLabelAccuracy::new);
        REGISTRY.put("strict-multi", StrictMultiAnswer::new);
        REGISTRY.put("truthfulness", Truthfulness::new);
    }

    private Metrics() {}

    /** The valid names, in registry order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    /**
     * The metric with this exact name.
     *
     * @throws IllegalArgumentException naming the unknown metric and listing the valid names
     */
    public static Metric byName(String name) {
        Supplier<Metric> s = name == null ? null : REGISTRY.get(name);
        if (s == null) {
            throw new IllegalArgumentException(
                    "unknown metric '" + name + "'; valid metrics: " + String.join(", ", REGISTRY.keySet()));
        }
        return s.get();
    }
}
