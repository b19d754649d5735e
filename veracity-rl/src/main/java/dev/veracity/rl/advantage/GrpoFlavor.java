package dev.veracity.rl.advantage;

import java.util.Locale;

/**
 * Whose GRPO advantage to compute: {@code (r - mean) / (std + eps)} over the rewards of one prompt's group, std
 * unbiased (N - 1) in all three, but each trainer with its own epsilon and its own answer for the edge cases
 * (read from their sources; see {@link GrpoAdvantages} for the cases):
 * <ul>
 *   <li>{@link #VERL}: {@code verl/trainer/ppo/core_algos.py}, {@code compute_grpo_outcome_advantage} (VeRL 0.8.0.dev):
 *       {@code epsilon=1e-6}; {@code torch.std}; a group of one gets mean 0 and std 1;
 *       {@code norm_adv_by_std_in_grpo=False} drops the division (Dr. GRPO).</li>
 *   <li>{@link #TRL}: {@code trl/trainer/grpo_trainer.py}, {@code _generate_and_score_completions} (TRL 1.10.0.dev):
 *       {@code advantages / (std_rewards + 1e-4)} with {@code nanstd} (Bessel); {@code scale_rewards} "group"
 *       (default), "batch" (std of the whole batch) or "none"; a reward function's None is NaN, left out of the mean
 *       and std, and its advantage {@code nan_to_num} 0.</li>
 *   <li>{@link #OPENRLHF}: {@code openrlhf/trainer/ppo_utils/experience_maker.py},
 *       {@code compute_advantages_and_returns} (OpenRLHF 0.11.0), estimator {@code group_norm}:
 *       {@code (rewards - rewards.mean(-1)) / (rewards.std(-1) + 1e-9)}; {@code dr_grpo} subtracts the mean only.</li>
 * </ul>
 */
public enum GrpoFlavor {
    VERL(1e-6), TRL(1e-4), OPENRLHF(1e-9);

    private final double epsilon;

    GrpoFlavor(double epsilon) {
        this.epsilon = epsilon;
    }

    /** The epsilon added to the group's standard deviation. */
    public double epsilon() {
        return epsilon;
    }

    /** {@code verl}, {@code trl} or {@code openrlhf}, any case. */
    public static GrpoFlavor of(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "verl" -> VERL;
            case "trl" -> TRL;
            case "openrlhf" -> OPENRLHF;
            default -> throw new IllegalArgumentException("unknown GRPO flavor '" + name + "'; valid: verl, trl, openrlhf");
        };
    }
}
