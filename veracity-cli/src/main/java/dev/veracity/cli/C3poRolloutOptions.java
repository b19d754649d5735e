package dev.veracity.cli;

import dev.veracity.methods.c3po.FewShot;
import dev.veracity.methods.c3po.Sampling;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.Rewards;
import picocli.CommandLine.Option;

/** The settings of C-3PO's tree rollout, shared by {@code rollout c3po} and {@code rl rollout --method c3po}. */
final class C3poRolloutOptions {

    @Option(names = "--preset", defaultValue = "paper", paramLabel = "NAME",
            description = "paper (max depth 13, Table 7) or authors (max depth 13 as their sampling script passes, MuSiQue"
                    + " max(2 x hops + 5, 13)). Default ${DEFAULT-VALUE}.")
    String preset;

    @Option(names = "--few-shot", defaultValue = "auto", paramLabel = "MODE",
            description = "Which prompts carry the authors' randomly drawn few-shot examples: llm (roadmap and answer),"
                    + " all (the proxy's agents too: C-3PO-ICL collecting seed data), none, or auto (all without a proxy"
                    + " flag, else llm). Default ${DEFAULT-VALUE}.")
    String fewShot;

    @Option(names = "--few-shot-seed", defaultValue = "42", paramLabel = "N",
            description = "Seed of the few-shot draw (default ${DEFAULT-VALUE}, the authors').")
    long fewShotSeed;

    @Option(names = "--single-trajectory",
            description = "The 'w/o tree rollout' ablation (section 6.4): one sampled trajectory per question, every node credited with its final reward.")
    boolean single;

    @Option(names = "--reward", defaultValue = "c3po-accuracy", paramLabel = "NAME",
            description = "The leaves' reward: any of veracity reward's model-free rewards (default ${DEFAULT-VALUE}, the authors' accuracy).")
    String reward;

    @Option(names = "--max-calls", defaultValue = "256", paramLabel = "N",
            description = "Model calls per tree at most; branches past it are recorded as failures (default ${DEFAULT-VALUE}).")
    int maxCalls;

    @Option(names = "--proxy-temperature", defaultValue = "0.6", paramLabel = "T",
            description = "The proxy's sampling temperature (default ${DEFAULT-VALUE}).")
    double proxyTemperature;

    /** The rollout's settings; a bad preset, few-shot mode or call budget is an error naming the flag. */
    RolloutSettings settings() {
        RolloutSettings.Preset p = RolloutSettings.Preset.of(preset);
        if (maxCalls < 1) {
            throw new IllegalArgumentException("--max-calls must be >= 1");
        }
        RolloutSettings s = RolloutSettings.of(p).withMaxCalls(maxCalls)
                .withProxy(Sampling.PROXY_ROLLOUT.withTemperature(proxyTemperature))
                .withFewShot(new FewShot(fewShotMode(), fewShotSeed));
        return single ? s.singleTrajectory() : s;
    }

    private FewShot.Mode fewShotMode() {
        try {
            return FewShot.Mode.of(fewShot);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--few-shot: " + e.getMessage());
        }
    }

    /** The leaves' reward: a model-free one. */
    Reward leafReward() {
        if (Rewards.spec(reward).needsModel()) {
            throw new IllegalArgumentException("--reward " + reward + " calls a model; the rollout takes a model-free"
                    + " reward (c3po-accuracy, accuracy, em, f1, ...)");
        }
        return Rewards.byName(reward);
    }
}
