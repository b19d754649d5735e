package dev.veracity.methods.march;

/**
 * Error Rate Reward of the reward ablation (Table 6): {@code R_ERR = -N_err / N_total}, the share of claims
 * the Checker found faulty, negated. {@code noClaims} when there is no claim (default 0).
 */
public record ErrorRateReward(double noClaims) {

    public static ErrorRateReward authors() {
        return new ErrorRateReward(0.0);
    }

    public double of(Verification v) {
        int total = v.claims().size();
        return total == 0 ? noClaims : v.faults() == 0 ? 0.0 : -(double) v.faults() / total;
    }
}
