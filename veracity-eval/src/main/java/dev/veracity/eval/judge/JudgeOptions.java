package dev.veracity.eval.judge;

/**
 * How a judge samples: k samples per prompt (asked as one request with n = k; the client splits it when the
 * backend cannot return n natively), their temperature, an optional token limit and model override.
 *
 * <p>The default is one greedy sample ({@code k = 1, temperature 0}), as TruthRL/CRAG and C-3PO report a single
 * judge call. MARCH's protocol (Sec. 4, "eight independent generations ... majority vote across these eight
 * trajectories") votes over eight <em>policy</em> generations, each judged once; {@code majorityOf(8, t)} votes
 * over eight <em>judge</em> samples of one prediction instead, for noisy judges.
 *
 * @param samples     k, the number of judge samples per prompt, &gt;= 1
 * @param temperature sampling temperature (null: the server's default); k &gt; 1 needs a temperature &gt; 0 to
 *                    give different samples
 * @param maxTokens   output limit, or null for none
 * @param model       model override, or null for the backend's default
 */
public record JudgeOptions(int samples, Double temperature, Integer maxTokens, String model) {

    public JudgeOptions {
        if (samples < 1) {
            throw new IllegalArgumentException("a judge needs at least one sample, was " + samples);
        }
    }

    /** One greedy sample. */
    public static JudgeOptions defaults() {
        return new JudgeOptions(1, 0.0, null, null);
    }

    /** Majority of k samples at this temperature. */
    public static JudgeOptions majorityOf(int k, double temperature) {
        return new JudgeOptions(k, temperature, null, null);
    }

    public JudgeOptions withMaxTokens(Integer maxTokens) {
        return new JudgeOptions(samples, temperature, maxTokens, model);
    }

    public JudgeOptions withModel(String model) {
        return new JudgeOptions(samples, temperature, maxTokens, model);
    }
}
