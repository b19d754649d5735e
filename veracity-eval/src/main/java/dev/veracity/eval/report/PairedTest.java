package dev.veracity.eval.report;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The two-sided p-value of a paired difference between two runs on the same questions, by the test that fits the
 * metric: for a 0/1 metric the exact McNemar test (a two-sided binomial test on the questions where the runs disagree:
 * 5 better and 1 worse give p = 2 x P(X &lt;= 1), X ~ Bin(6, 1/2) = 0.219); for any other metric the sign-flip
 * permutation test of the mean difference, exact over every sign pattern when at most {@link #EXACT_UP_TO} questions
 * differ, else over {@code resamples} random patterns with p = (1 + k) / (1 + B), which is never 0.
 *
 * <p>A bootstrap p-value, which this replaces, is 0 as soon as no resample crosses 0 and is far too small when few
 * questions differ; these tests are exact or say their resolution ({@link Result#display()}: {@code p<0.001}).
 */
public final class PairedTest {

    /** Up to this many nonzero differences the sign-flip test enumerates every pattern (2^20 sums). */
    static final int EXACT_UP_TO = 20;

    /** Printed p-values below this read "p&lt;0.001". */
    private static final double SMALLEST_PRINTED = 0.001;

    private PairedTest() {
    }

    /**
     * A test's outcome.
     *
     * @param test      {@code mcnemar-exact}, {@code sign-flip-exact} or {@code sign-flip-monte-carlo}
     * @param p         the two-sided p-value
     * @param resamples the random sign patterns drawn (0 for an exact test)
     * @param extreme   for the random patterns, how many were at least as far from 0 as the observed difference
     */
    public record Result(String test, double p, int resamples, int extreme) {

        /** Whether p is exact (not estimated from random patterns). */
        public boolean exact() {
            return resamples == 0;
        }

        /**
         * "p=0.219"; never "p=0.000": an exact p under 0.001 reads "p&lt;0.001", and a random-pattern test none of
         * whose B patterns reached the observed difference reads "p&lt;1/B" (e.g. "p&lt;0.001" for B = 1000).
         */
        public String display() {
            if (!exact() && extreme == 0) {
                return "p<" + trim(1.0 / resamples);
            }
            if (p < SMALLEST_PRINTED) {
                return "p<" + trim(SMALLEST_PRINTED);
            }
            return String.format(Locale.ROOT, "p=%.3f", p);
        }

        /** The test in words, for the line that explains the column. */
        public String describe() {
            return switch (test) {
                case "mcnemar-exact" -> "exact McNemar";
                case "sign-flip-exact" -> "sign-flip permutation, exact";
                default -> "sign-flip permutation, " + resamples + " random patterns";
            };
        }

        private static String trim(double v) {
            String s = String.format(Locale.ROOT, "%.6f", v);
            return s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
    }

    /**
     * The test of {@code run} against {@code base}, value by value on the same questions.
     *
     * @param resamples random sign patterns when the sign-flip test cannot enumerate them all
     * @param seed      their generator's seed (the same inputs give the same p)
     */
    public static Result of(double[] base, double[] run, int resamples, long seed) {
        if (base.length != run.length) {
            throw new IllegalArgumentException("paired values of different lengths: " + base.length + " and " + run.length);
        }
        if (binary(base) && binary(run)) {
            int better = 0;
            int worse = 0;
            for (int i = 0; i < base.length; i++) {
                better += run[i] > base[i] ? 1 : 0;
                worse += run[i] < base[i] ? 1 : 0;
            }
            return new Result("mcnemar-exact", mcnemar(better, worse), 0, 0);
        }
        double[] d = new double[base.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = run[i] - base[i];
        }
        return signFlip(d, resamples, seed);
    }

    /** Whether every value is 0 or 1. */
    static boolean binary(double[] values) {
        for (double v : values) {
            if (v != 0 && v != 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * The exact two-sided McNemar test: of the {@code b + c} questions where the runs disagree, {@code b} went one way;
     * p = min(1, 2 P(X &lt;= min(b, c))) with X ~ Bin(b + c, 1/2); 1 when they never disagree.
     */
    static double mcnemar(int b, int c) {
        int n = b + c;
        if (n == 0) {
            return 1.0;
        }
        int k = Math.min(b, c);
        if (n <= 60) {
            // exactly, in whole numbers: the sum of C(n, i) for i <= k < n/2 stays below 2^59
            long sum = 0;
            long binomial = 1; // C(n, 0)
            for (int i = 0; i <= k; i++) {
                if (i > 0) {
                    binomial = binomial * (n - i + 1) / i;
                }
                sum += binomial;
            }
            return Math.min(1.0, 2.0 * sum / Math.pow(2, n));
        }
        // P(X <= k) summed in log space: C(n, i) / 2^n overflows a double past n ~ 1000
        double logHalfN = -n * Math.log(2);
        double tail = 0;
        double logC = 0; // log C(n, 0)
        for (int i = 0; i <= k; i++) {
            if (i > 0) {
                logC += Math.log(n - i + 1) - Math.log(i);
            }
            tail += Math.exp(logC + logHalfN);
        }
        return Math.min(1.0, 2 * tail);
    }

    /**
     * The sign-flip permutation test of the mean of {@code d}: under no difference each question's sign is as likely
     * either way, so p is the share of sign patterns whose |sum| is at least the observed |sum|. Zeros do not move the
     * sum and are left out; exact over every pattern of at most {@link #EXACT_UP_TO} nonzero values (in Gray-code
     * order, one flip a step), else over random patterns.
     */
    static Result signFlip(double[] d, int resamples, long seed) {
        int m = 0;
        for (double v : d) {
            m += v != 0 ? 1 : 0;
        }
        if (m == 0) {
            return new Result("sign-flip-exact", 1.0, 0, 0);
        }
        double[] nz = new double[m];
        double observed = 0;
        double scale = 0;
        int j = 0;
        for (double v : d) {
            if (v != 0) {
                nz[j++] = v;
                observed += v;
                scale += Math.abs(v);
            }
        }
        double target = Math.abs(observed) - 1e-9 * scale; // a sum equal to the observed one counts, rounding aside
        if (m <= EXACT_UP_TO) {
            long patterns = 1L << m;
            double sum = observed; // every sign as observed
            long atLeast = 0;
            for (long g = 0; g < patterns; g++) {
                if (g > 0) {
                    int flip = Long.numberOfTrailingZeros(g); // Gray code: pattern g differs from g - 1 in this sign
                    long gray = g ^ (g >> 1);
                    sum += ((gray >> flip) & 1) == 1 ? -2 * nz[flip] : 2 * nz[flip];
                }
                atLeast += Math.abs(sum) >= target ? 1 : 0;
            }
            return new Result("sign-flip-exact", (double) atLeast / patterns, 0, 0);
        }
        if (resamples < 1) {
            throw new IllegalArgumentException("resamples must be >= 1, got " + resamples);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int extreme = 0;
        for (int b = 0; b < resamples; b++) {
            double sum = 0;
            for (double v : nz) {
                sum += random.nextBoolean() ? v : -v;
            }
            extreme += Math.abs(sum) >= target ? 1 : 0;
        }
        return new Result("sign-flip-monte-carlo", (1.0 + extreme) / (1.0 + resamples), resamples, extreme);
    }
}
