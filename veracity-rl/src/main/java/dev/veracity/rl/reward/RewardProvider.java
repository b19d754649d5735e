package dev.veracity.rl.reward;

import java.util.List;

/**
 * Contributes rewards (a service: list the implementation in
 * {@code META-INF/services/dev.veracity.rl.reward.RewardProvider}): each a {@link Rewards.Spec} with its name,
 * description, whether it calls a model, and its factory. {@code veracity reward}, {@code serve-rewards}, the trainer
 * shims and {@code rl export} then know it by name, as they know the built-in ones ({@link BuiltInRewards}).
 */
public interface RewardProvider {

    /** The rewards, in the order the registry lists them. */
    List<Rewards.Spec> rewards();
}
