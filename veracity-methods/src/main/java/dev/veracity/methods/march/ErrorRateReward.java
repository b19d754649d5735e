package dev.veracity.methods.march;

/**
 * Error Rate Reward of the reward ablation (Table 6): {@code R_ERR = -N_err / N_total}, the share of claims
 * the Checker found faulty, negated. {@code noClaims} when there is no claim (default 0); {@code unparseable} when
 * the Proposer's output could not be read (default -1: nothing was verified; see {@link ZeroToleranceReward}).
 */
public record ErrorRateReward(double noClaims, double unparseable) {

    public static ErrorRateReward authors() {
        return new ErrorRateReward(0.0, 0.0);
    }

    public double of(Verification v) {
        return switch (v.status()) {
            case NO_CLAIMS -> noClaims;
            case UNPARSEABLE -> unparseable;
            case PASSED, FAILED -> v.faults() == 0 ? 0.0 : -(double) v.faults() / v.claims().size();
        };
    }
}
