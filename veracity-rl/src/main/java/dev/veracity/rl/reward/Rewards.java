package dev.veracity.rl.reward;

import dev.veracity.eval.metrics.Metrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The registry of rewards by name: every official metric, TruthRL's exact-match rewards and MARCH's rewards. */
public final class Rewards {

    /**
     * One registered reward.
     *
     * @param needsModel whether it calls a model ({@link RewardSettings#llm()} must be set)
     */
    public record Spec(String name, String description, boolean needsModel, Function<RewardSettings, Reward> factory) {
    }

    private static final Map<String, Spec> REGISTRY = new LinkedHashMap<>();

    static {
        for (String metric : Metrics.names()) {
            add(metric, "the official metric " + metric + " (veracity score --metric " + metric + ") as a reward", false,
                    s -> new MetricReward(metric, metric));
        }
        // C-3PO's and PopQA's "accuracy" is the substring rule: a normalised gold answer inside the normalised response.
        add("accuracy", "C-3PO / PopQA accuracy: the substring metric under its papers' name", false,
                s -> new MetricReward("accuracy", "substring"));
        add("truthrl-ternary", "TruthRL ternary: boxed correct +1, boxed \"I don't know\" 0, else -1 (exact match)", false,
                s -> truthRl(TruthRlReward.Scheme.TERNARY, s));
        add("truthrl-binary", "TruthRL binary: boxed correct +1, else -1 (exact match)", false,
                s -> truthRl(TruthRlReward.Scheme.BINARY, s));
        add("march-ztr", "MARCH Zero-Tolerance Reward: Proposer + blind Checker over the label's documents, -1 on any fault",
                true, s -> new MarchReward(MarchReward.Kind.ZTR, s));
        add("march-err", "MARCH Error Rate Reward: -faults/claims over the label's documents", true,
                s -> new MarchReward(MarchReward.Kind.ERROR_RATE, s));
    }

    private Rewards() {
    }

    private static void add(String name, String description, boolean needsModel, Function<RewardSettings, Reward> factory) {
        REGISTRY.put(name, new Spec(name, description, needsModel, factory));
    }

    private static Reward truthRl(TruthRlReward.Scheme scheme, RewardSettings s) {
        if (!s.judge().equals("none")) {
            throw new IllegalArgumentException("judge '" + s.judge() + "' is not available for the TruthRL rewards yet;"
                    + " only 'none' (exact match) is");
        }
        return new TruthRlReward(scheme);
    }

    /** The valid names, in registry order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    /**
     * The registered reward of this name.
     *
     * @throws IllegalArgumentException naming the unknown reward and listing the valid names
     */
    public static Spec spec(String name) {
        Spec s = name == null ? null : REGISTRY.get(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown reward '" + name + "'; valid rewards: " + String.join(", ", REGISTRY.keySet()));
        }
        return s;
    }

    /** A reward that needs nothing but its inputs (a metric, TruthRL); see {@link #byName(String, RewardSettings)}. */
    public static Reward byName(String name) {
        return byName(name, RewardSettings.defaults());
    }

    /**
     * The reward of this name built with these settings.
     *
     * @throws IllegalArgumentException for an unknown name (listing the valid ones), a reward that calls a model
     *                                  without {@link RewardSettings#llm()}, or a setting the reward refuses
     */
    public static Reward byName(String name, RewardSettings settings) {
        Spec s = spec(name);
        if (s.needsModel() && settings.llm() == null) {
            throw new IllegalArgumentException("reward " + name + " calls a model: give it one (RewardSettings.withLlm,"
                    + " or --llm-base-url and --model on the command line)");
        }
        return s.factory().apply(settings);
    }
}
