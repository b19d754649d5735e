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
        add("c3po-accuracy", "C-3PO's leaf reward: the authors' exact_presence (a normalised gold answer inside the"
                + " normalised response), 1 or 0; the default of veracity rollout c3po", false, s -> new C3poReward());
        truthRl("truthrl-ternary", "TruthRL ternary: boxed correct +1, boxed abstention 0, else -1 (exact match)",
                TruthRlReward.Scheme.TERNARY, false, TruthRlReward.Reasoning.NONE, false);
        truthRl("truthrl-binary", "TruthRL binary: boxed correct +1, else -1 (exact match)",
                TruthRlReward.Scheme.BINARY, false, TruthRlReward.Reasoning.NONE, false);
        truthRl("truthrl-ternary-authors", "TruthRL ternary in the order of the authors' training code: a boxed \"invalid"
                + " question\" is -1 even when the gold answer is \"invalid question\"; exact match with any gold before the"
                + " judge", TruthRlReward.Scheme.TERNARY, false,
                TruthRlReward.Reasoning.NONE, true);
        truthRl("truthrl-knowledge-ternary", "TruthRL knowledge-enhanced ternary: out-of-knowledge (label ook) abstention +1,"
                + " else -1; other questions ternary", TruthRlReward.Scheme.TERNARY, true, TruthRlReward.Reasoning.NONE, false);
        truthRl("truthrl-knowledge-binary", "TruthRL knowledge-enhanced binary: out-of-knowledge (label ook) abstention +1,"
                + " else -1; other questions binary", TruthRlReward.Scheme.BINARY, true, TruthRlReward.Reasoning.NONE, false);
        truthRl("truthrl-reasoning-multiplicative", "TruthRL reasoning-enhanced: ternary r times (1 + label reasoning_score)",
                TruthRlReward.Scheme.TERNARY, false, TruthRlReward.Reasoning.MULTIPLICATIVE, false);
        truthRl("truthrl-reasoning-additive", "TruthRL reasoning-enhanced: ternary r + 0.5 x label reasoning_score",
                TruthRlReward.Scheme.TERNARY, false, TruthRlReward.Reasoning.ADDITIVE, false);
        truthRl("truthrl-reasoning-conditional", "TruthRL reasoning-enhanced: ternary r x label reasoning_score when r = 1,"
                + " else r", TruthRlReward.Scheme.TERNARY, false, TruthRlReward.Reasoning.CONDITIONAL, false);
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

    private static void truthRl(String name, String description, TruthRlReward.Scheme scheme, boolean knowledge,
                                TruthRlReward.Reasoning reasoning, boolean authorsRule) {
        add(name, description, false, s -> {
            if (s.judge().equals("none")) {
                return new TruthRlReward(name, scheme, knowledge, reasoning, authorsRule, s.fallbackScore());
            }
            if (s.llm() == null) {
                throw new IllegalArgumentException("reward " + name + " with judge '" + s.judge() + "' calls a model: give"
                        + " it one (RewardSettings.withLlm, or --llm-base-url and --model on the command line)");
            }
            dev.veracity.eval.judge.Judge judge = dev.veracity.eval.judge.Judges.byName(s.judge(), s.llm(),
                    new dev.veracity.eval.judge.JudgeOptions(1, 0.0, null, null));
            dev.veracity.eval.judge.Judge reasoningJudge = reasoning == TruthRlReward.Reasoning.NONE ? null
                    : new dev.veracity.eval.judge.ReasoningJudge(s.llm(), new dev.veracity.eval.judge.JudgeOptions(1, 0.0, null, null));
            return new TruthRlReward(name, scheme, knowledge, reasoning, authorsRule, s.fallbackScore(), judge,
                    reasoningJudge, s.runId(), s.parallelism());
        });
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
