package dev.veracity.methods.march;

import java.util.Locale;

/**
 * Zero-Tolerance Reward, equation 7: success only when every claim is confirmed. Table 6 compares two scalars:
 * {@link Scalar#PENALTY} (0 on success, -1 otherwise; the paper's default and its better one) and
 * {@link Scalar#INCENTIVE} (1 / 0). A response without claims gets {@code noClaims} (the authors' code gives 0,
 * whatever the scalar; configurable). A response whose Proposer output could not be read gets {@code unparseable}:
 * the authors' code gives it 0 as well (it cannot tell it from "no claims"), which pays the success value for a
 * response nobody checked; we give the failure value by default ({@code null}) and record the difference
 * (option {@code unparseable-reward=0} restores the authors').
 */
public record ZeroToleranceReward(Scalar scalar, double noClaims, Double unparseable) {

    public ZeroToleranceReward(Scalar scalar, double noClaims) {
        this(scalar, noClaims, null);
    }

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
        return switch (v.status()) {
            case NO_CLAIMS -> noClaims;
            case UNPARSEABLE -> unparseable == null ? scalar.fail : unparseable;
            case FAILED -> scalar.fail;
            case PASSED -> scalar.pass;
        };
    }
}
