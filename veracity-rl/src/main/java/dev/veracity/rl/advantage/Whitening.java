package dev.veracity.rl.advantage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whitening of GAE advantages over every token of the batch, as each trainer does it after GAE:
 * <ul>
 *   <li>{@link #VERL}: {@code verl/utils/torch_functional.py}, {@code masked_whiten}: mean = sum / (n + 1e-8)
 *       ({@code masked_mean}), variance unbiased ({@code masked_var}: the same mean of squares times n / (n - 1);
 *       it raises for n = 1), {@code (a - mean) * rsqrt(var + 1e-8)};</li>
 *   <li>{@link #OPENRLHF}: {@code experience_maker.py}, end of {@code compute_advantages_and_returns}: mean = sum / n,
 *       biased variance, {@code (a - mean) * var.clamp(min=1e-8).rsqrt()};</li>
 *   <li>{@link #NONE}: the advantages as GAE gives them.</li>
 * </ul>
 * Returns are never whitened (both trainers compute them before).
 */
public enum Whitening {
    NONE, VERL, OPENRLHF;

    /** {@code none}, {@code verl} or {@code openrlhf}, any case. */
    public static Whitening of(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "none" -> NONE;
            case "verl" -> VERL;
            case "openrlhf" -> OPENRLHF;
            default -> throw new IllegalArgumentException("unknown whitening '" + name + "'; valid: none, verl, openrlhf");
        };
    }

    /**
     * The whitened advantages, each row's tokens in place.
     *
     * @throws IllegalArgumentException for VeRL over a single token (its masked_var raises)
     */
    public List<double[]> apply(List<double[]> rows) {
        if (this == NONE) {
            return rows;
        }
        long n = 0;
        double sum = 0;
        for (double[] r : rows) {
            n += r.length;
            for (double v : r) {
                sum += v;
            }
        }
        if (this == VERL && n < 2) {
            throw new IllegalArgumentException("VeRL's whitening needs at least two tokens in the batch (its masked_var"
                    + " raises for one)");
        }
        double mean = this == VERL ? sum / (n + 1e-8) : sum / n;
        double ss = 0;
        for (double[] r : rows) {
            for (double v : r) {
                ss += (v - mean) * (v - mean);
            }
        }
        double scale = this == VERL
                ? 1.0 / Math.sqrt(ss / (n + 1e-8) * ((double) n / (n - 1)) + 1e-8)
                : 1.0 / Math.sqrt(Math.max(ss / n, 1e-8));
        List<double[]> out = new ArrayList<>(rows.size());
        for (double[] r : rows) {
            double[] w = new double[r.length];
            for (int i = 0; i < r.length; i++) {
                w[i] = (r[i] - mean) * scale;
            }
            out.add(w);
        }
        return out;
    }
}
