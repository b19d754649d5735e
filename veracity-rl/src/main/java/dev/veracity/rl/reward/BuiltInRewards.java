package dev.veracity.rl.reward;

import dev.veracity.eval.metrics.Metrics;
import dev.veracity.plugin.Plugins;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Every official metric as a reward, TruthRL's rewards, MARCH's and C-3PO's, contributed as any plug-in contributes
 * rewards ({@code META-INF/services/dev.veracity.rl.reward.RewardProvider}), listed first.
 */
public final class BuiltInRewards implements RewardProvider, Plugins.Ordered {

    private final List<Rewards.Spec> specs = new ArrayList<>();

    public BuiltInRewards() {
        declare();
    }


    /** The rewards, in listing order. */
    private void declare() {
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

    private void add(String name, String description, boolean needsModel, Function<RewardSettings, Reward> factory) {
        specs.add(new Rewards.Spec(name, description, needsModel, factory));
    }

    private void truthRl(String name, String description, TruthRlReward.Scheme scheme, boolean knowledge,
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

    @Override
    public List<Rewards.Spec> rewards() {
        return List.copyOf(specs);
    }

    @Override
    public int order() {
        return BUILT_IN;
    }
}
