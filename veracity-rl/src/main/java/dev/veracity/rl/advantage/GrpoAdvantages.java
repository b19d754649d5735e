package dev.veracity.rl.advantage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GRPO outcome advantages, one per sample, as {@link GrpoFlavor}'s trainer computes them (in double precision; the
 * trainers use float32, so they differ from these in the 7th significant digit). Groups are keyed by the sample's
 * group, in any order (VeRL groups by uid the same way; TRL and OpenRLHF reshape consecutive rows into groups of one
 * fixed size, which a file of such rows reproduces). Edge cases, each as its trainer's code does it:
 * <table>
 *   <caption>edge cases</caption>
 *   <tr><th></th><th>VeRL</th><th>TRL</th><th>OpenRLHF</th></tr>
 *   <tr><td>group of one</td><td>mean 0, std 1: {@code r / (1 + 1e-6)} ({@code r} without std)</td>
 *       <td>std 0, so {@code (r - r) / 1e-4 = 0}</td>
 *       <td>{@code torch.std} of one value is NaN: refused ({@code dr_grpo}: 0)</td></tr>
 *   <tr><td>all rewards equal</td><td>0</td><td>0</td><td>0</td></tr>
 *   <tr><td>reward null</td><td>refused</td><td>left out of mean and std; advantage 0 (NaN, then {@code nan_to_num})</td>
 *       <td>refused</td></tr>
 *   <tr><td>batch std</td><td>refused</td><td>{@code scale_rewards="batch"}: group mean, std of every reward of the
 *       batch</td><td>refused</td></tr>
 * </table>
 */
public final class GrpoAdvantages {

    /** One sample: the prompt group it belongs to and its reward (null only for TRL's unscorable completion). */
    public record Sample(String group, Double reward) {
    }

    /** A sample or group the flavor cannot compute; {@link #index()} is the first sample concerned. */
    public static final class Problem extends IllegalArgumentException {
        private final int index;

        Problem(int index, String message) {
            super(message);
            this.index = index;
        }

        public int index() {
            return index;
        }
    }

    private GrpoAdvantages() {
    }

    /**
     * The advantage of every sample, in sample order.
     *
     * @throws Problem for what the flavor's trainer would refuse or turn into NaN (see the class comment)
     */
    public static double[] compute(List<Sample> samples, GrpoFlavor flavor, StdScaling scaling) {
        if (scaling == StdScaling.BATCH && flavor != GrpoFlavor.TRL) {
            throw new Problem(0, "batch std is TRL's scale_rewards=\"batch\"; " + flavor.name().toLowerCase(java.util.Locale.ROOT)
                    + " scales by the group's std or not at all (group or none)");
        }
        for (int i = 0; i < samples.size(); i++) {
            if (samples.get(i).reward() == null && flavor != GrpoFlavor.TRL) {
                throw new Problem(i, "reward is null: only TRL takes a missing reward (a reward function's None);"
                        + " give a number");
            }
        }
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            groups.computeIfAbsent(samples.get(i).group(), g -> new ArrayList<>()).add(i);
        }
        double batchStd = flavor == GrpoFlavor.TRL && scaling == StdScaling.BATCH ? trlBatchStd(samples) : Double.NaN;
        double[] out = new double[samples.size()];
        for (Map.Entry<String, List<Integer>> g : groups.entrySet()) {
            List<Integer> idx = g.getValue();
            switch (flavor) {
                case VERL -> verl(samples, idx, scaling, out);
                case TRL -> trl(samples, idx, scaling, batchStd, out);
                case OPENRLHF -> openRlhf(samples, g.getKey(), idx, scaling, out);
            }
        }
        return out;
    }

    /** VeRL: a group of one has mean 0 and std 1; otherwise torch.mean and torch.std (unbiased). */
    private static void verl(List<Sample> s, List<Integer> idx, StdScaling scaling, double[] out) {
        double[] r = rewards(s, idx);
        double mean = r.length == 1 ? 0.0 : mean(r);
        double std = r.length == 1 ? 1.0 : unbiasedStd(r, mean);
        for (int k = 0; k < r.length; k++) {
            out[idx.get(k)] = scaling == StdScaling.GROUP ? (r[k] - mean) / (std + GrpoFlavor.VERL.epsilon()) : r[k] - mean;
        }
    }

    /**
     * TRL: nanmean and nanstd over the group's scored samples; std 0 for a group of one (num_generations == 1);
     * NaN (a null reward, or a std of fewer than two scored samples) becomes 0.
     */
    private static void trl(List<Sample> s, List<Integer> idx, StdScaling scaling, double batchStd, double[] out) {
        List<Double> scored = new ArrayList<>();
        for (int i : idx) {
            if (s.get(i).reward() != null) {
                scored.add(s.get(i).reward());
            }
        }
        double[] valid = scored.stream().mapToDouble(Double::doubleValue).toArray();
        double mean = valid.length == 0 ? Double.NaN : mean(valid);
        double std = switch (scaling) {
            case GROUP -> idx.size() == 1 ? 0.0 : nanstd(valid, mean);
            case BATCH -> batchStd;
            case NONE -> 0.0;
        };
        for (int i : idx) {
            Double r = s.get(i).reward();
            double a = r == null ? Double.NaN : r - mean;
            if (scaling != StdScaling.NONE) {
                a = a / (std + GrpoFlavor.TRL.epsilon());
            }
            out[i] = Double.isNaN(a) ? 0.0 : a;
        }
    }

    /** TRL's batch std: nanstd of every reward when the batch has more than one element, else 0. */
    private static double trlBatchStd(List<Sample> s) {
        if (s.size() <= 1) {
            return 0.0;
        }
        double[] valid = s.stream().filter(x -> x.reward() != null).mapToDouble(Sample::reward).toArray();
        return valid.length == 0 ? Double.NaN : nanstd(valid, mean(valid));
    }

    /** OpenRLHF group_norm: torch.std (unbiased) + 1e-9, NaN for a group of one; dr_grpo: r - mean. */
    private static void openRlhf(List<Sample> s, String group, List<Integer> idx, StdScaling scaling, double[] out) {
        double[] r = rewards(s, idx);
        double mean = mean(r);
        if (scaling == StdScaling.GROUP && r.length == 1) {
            throw new Problem(idx.getFirst(), "group " + group + " has one sample: OpenRLHF's group_norm divides by"
                    + " torch.std of one value, which is NaN; give each prompt at least two samples (or --scale none)");
        }
        double std = scaling == StdScaling.GROUP ? unbiasedStd(r, mean) : 0.0;
        for (int k = 0; k < r.length; k++) {
            out[idx.get(k)] = scaling == StdScaling.GROUP ? (r[k] - mean) / (std + GrpoFlavor.OPENRLHF.epsilon()) : r[k] - mean;
        }
    }

    private static double[] rewards(List<Sample> s, List<Integer> idx) {
        double[] r = new double[idx.size()];
        for (int k = 0; k < r.length; k++) {
            r[k] = s.get(idx.get(k)).reward();
        }
        return r;
    }

    static double mean(double[] x) {
        double sum = 0;
        for (double v : x) {
            sum += v;
        }
        return sum / x.length;
    }

    /** Sample standard deviation (Bessel, N - 1), as torch.std; needs two or more values. */
    static double unbiasedStd(double[] x, double mean) {
        double ss = 0;
        for (double v : x) {
            ss += (v - mean) * (v - mean);
        }
        return Math.sqrt(ss / (x.length - 1));
    }

    /** TRL's nanstd over the non-null values: NaN for fewer than two. */
    private static double nanstd(double[] valid, double mean) {
        return valid.length < 2 ? Double.NaN : unbiasedStd(valid, mean);
    }
}
