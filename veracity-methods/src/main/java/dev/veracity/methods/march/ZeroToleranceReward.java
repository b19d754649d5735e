package dev.veracity.methods.march;

import java.util.Locale;

/**
 * Zero-Tolerance Reward, equation 7: success only when every claim is confirmed. Table 6 compares two scalars:
 * {@link Scalar#PENALTY} (0 on success, -1 otherwise; the paper's default and its better one) and
 * {@link Scalar#INCENTIVE} (1 / 0). A response without parsed claims gets {@code noClaims} (the authors' code gives
 * 0, whatever the scalar; configurable).
 */
public record ZeroToleranceReward(Scalar scalar, double noClaims) {

    public enum Scalar {
        PENALTY(0.0, -1.0), INCENTIVE(1.0, 0.0);

        final double pass;
        final double fail;

        Scalar(double pass, double fail) {
            this.pass = pass;
            this.fail = fail;
        }

        public double pass() {
            return pass;
        }

        public double fail() {
            return fail;
        }

        static Scalar of(String s) {
            return switch (s.toLowerCase(Locale.ROOT).strip()) {
                case "penalty", "-1/0" -> PENALTY;
                case "incentive", "0/1" -> INCENTIVE;
                default -> throw new IllegalArgumentException("option scalar must be penalty (-1/0) or incentive (0/1), was '" + s + "'");
            };
        }
    }

    /** -1/0 with 0 for no claims: the paper and the authors' code. */
    public static ZeroToleranceReward authors() {
        return new ZeroToleranceReward(Scalar.PENALTY, 0.0);
    }

    public double of(Verification v) {
        if (v.claims().isEmpty()) {
            return noClaims;
        }
        return v.faults() > 0 ? scalar.fail : scalar.pass;
    }
}
