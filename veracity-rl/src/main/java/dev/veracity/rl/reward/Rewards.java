package dev.veracity.rl.reward;

import dev.veracity.plugin.Registry;
import java.util.List;
import java.util.function.Function;

/**
 * The registry of rewards by name: every {@link RewardProvider}'s ({@link BuiltInRewards}: every official metric,
 * TruthRL's, MARCH's and C-3PO's rewards; then the plug-ins'). A name two providers claim is an error naming both.
 */
public final class Rewards {

    /**
     * One registered reward.
     *
     * @param needsModel whether it calls a model ({@link RewardSettings#llm()} must be set)
     */
    public record Spec(String name, String description, boolean needsModel, Function<RewardSettings, Reward> factory) {
    }

    private static final Registry<RewardProvider, Spec> REGISTRY = new Registry<>(RewardProvider.class,
            RewardProvider::rewards, Spec::name, "reward");

    private Rewards() {
    }

    /** The valid names, in registry order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.byName().keySet());
    }

    /**
     * The registered reward of this name.
     *
     * @throws IllegalArgumentException naming the unknown reward and listing the valid names
     */
    public static Spec spec(String name) {
        Spec s = name == null ? null : REGISTRY.byName().get(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown reward '" + name + "'; "
                    + REGISTRY.didYouMean(name) + "valid rewards: " + String.join(", ", REGISTRY.byName().keySet()));
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
