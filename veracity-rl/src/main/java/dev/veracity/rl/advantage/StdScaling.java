package dev.veracity.rl.advantage;

import java.util.Locale;

/**
 * What a GRPO advantage is divided by: the group's standard deviation (the default everywhere), the whole batch's
 * (TRL {@code scale_rewards="batch"} only), or nothing (TRL {@code scale_rewards="none"}, VeRL
 * {@code norm_adv_by_std_in_grpo=False}, OpenRLHF {@code dr_grpo}: the Dr. GRPO advantage {@code r - mean}).
 */
public enum StdScaling {
    GROUP, BATCH, NONE;

    /** {@code group}, {@code batch} or {@code none}, any case. */
    public static StdScaling of(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "group" -> GROUP;
            case "batch" -> BATCH;
            case "none" -> NONE;
            default -> throw new IllegalArgumentException("unknown std scaling '" + name + "'; valid: group, batch, none");
        };
    }
}
