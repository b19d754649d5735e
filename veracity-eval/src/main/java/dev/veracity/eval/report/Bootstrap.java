package dev.veracity.eval.report;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile bootstrap confidence intervals of a mean: {@code resamples} resamples with replacement, drawn from a
 * generator with a fixed seed, so the same values, resamples and seed always give the same interval. A paired
 * difference's interval is this over the per-question differences; its p-value comes from {@link PairedTest}.
 */
public final class Bootstrap {

    /** The default number of resamples. */
    public static final int DEFAULT_RESAMPLES = 1000;
    /** The fixed seed: the interval of a run is reproducible. */
    public static final long DEFAULT_SEED = 20_240_601L;
    /** The confidence level. */
    public static final double LEVEL = 0.95;

    /**
     * A mean with its interval.
     *
     * @param mean the sample mean
     * @param lo   the lower bound
     * @param hi   the upper bound
     * @param n    the number of values
     */
    public record Interval(double mean, double lo, double hi, int n) {
    }

    private Bootstrap() {
    }

    /** The 95% percentile bootstrap interval of the mean of {@code values}, or null when there are none. */
    public static Interval mean(double[] values, int resamples, long seed) {
        if (resamples < 1) {
            throw new IllegalArgumentException("resamples must be >= 1, got " + resamples);
        }
        int n = values.length;
        if (n == 0) {
            return null;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        double mean = sum / n;
        SplittableRandom random = new SplittableRandom(seed);
        double[] means = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += values[random.nextInt(n)];
            }
            means[b] = s / n;
        }
        Arrays.sort(means);
        double alpha = (1 - LEVEL) / 2;
        return new Interval(mean, quantile(means, alpha), quantile(means, 1 - alpha), n);
    }

    /** Linear interpolation between order statistics (R's type 7) of sorted values. */
    static double quantile(double[] sorted, double q) {
        double h = (sorted.length - 1) * q;
        int i = (int) Math.floor(h);
        int j = Math.min(i + 1, sorted.length - 1);
        return sorted[i] + (h - i) * (sorted[j] - sorted[i]);
    }
}
