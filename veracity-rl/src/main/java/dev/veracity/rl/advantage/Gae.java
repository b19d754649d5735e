package dev.veracity.rl.advantage;

/**
 * Generalised Advantage Estimation over one response's tokens, before whitening:
 * {@code delta_t = r_t + gamma * V_{t+1} - V_t} (with {@code V_T = 0}), {@code A_t = delta_t + gamma * lambda * A_{t+1}},
 * returns {@code A_t + V_t}. The same recursion in VeRL ({@code verl/trainer/ppo/core_algos.py},
 * {@code compute_gae_advantage_return}, every token in the response mask) and OpenRLHF
 * ({@code openrlhf/trainer/ppo_utils/experience_maker.py}, {@code get_advantages_and_returns}); both whiten the
 * advantages afterwards, which {@link Whitening} does as a separate step.
 */
public final class Gae {

    /** Per-token advantages and returns. */
    public record Result(double[] advantages, double[] returns) {
    }

    private Gae() {
    }

    /**
     * @throws IllegalArgumentException when the lists differ in length or are empty, or gamma or lambda is outside
     *                                  [0, 1]
     */
    public static Result compute(double[] rewards, double[] values, double gamma, double lambda) {
        checkFactor("gamma", gamma);
        checkFactor("lambda", lambda);
        if (rewards.length != values.length) {
            throw new IllegalArgumentException("\"rewards\" has " + rewards.length + " numbers and \"values\" "
                    + values.length + ": one value per reward");
        }
        if (rewards.length == 0) {
            throw new IllegalArgumentException("\"rewards\" is empty");
        }
        int n = rewards.length;
        double[] adv = new double[n];
        double[] ret = new double[n];
        double next = 0.0;
        double last = 0.0;
        for (int t = n - 1; t >= 0; t--) {
            double delta = rewards[t] + gamma * next - values[t];
            last = delta + gamma * lambda * last;
            adv[t] = last;
            ret[t] = last + values[t];
            next = values[t];
        }
        return new Result(adv, ret);
    }

    static void checkFactor(String name, double v) {
        if (!(v >= 0.0 && v <= 1.0)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], was " + v);
        }
    }
}
