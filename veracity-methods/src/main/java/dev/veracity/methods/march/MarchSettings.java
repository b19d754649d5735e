package dev.veracity.methods.march;

import dev.veracity.method.MethodOptions;
import dev.veracity.method.OptionSpec;
import java.util.List;
import java.util.Map;

/**
 * MARCH's settings, from method options ({@code --option name=value}) declared in {@link #OPTIONS}, the one place
 * their names, types and defaults are written.
 *
 * @param samples        Checker samples k, voted per question (default 3, as the authors sample)
 * @param minPairs       Proposer constraint "no fewer than k questions" of the Appendix B.4 analysis (default 0:
 *                       the A.2 prompt as printed, the paper's main method; k > 0 appends the constraint)
 * @param maxPairs       the constraint's upper bound (default 10, the authors' prompt)
 * @param match          {@code authors} (default), {@code strict} or {@code typed}
 * @param relTolerance   relative tolerance of the strict and typed matchers (default 1e-6)
 * @param typedClaims    OUR EXTENSION ({@code claims=typed}): non-numeric claims with the typed prompts
 * @param temperature    sampling temperature of every agent (default 0.6, the paper's rollout temperature, B.1)
 * @param maxTokens      output limit per call (default 2048)
 * @param policy         what the method does on a failed verification (default report)
 * @param regenerations  r, the most extra Solver samples under {@code policy=regenerate} (default 2)
 * @param scalar         ZTR scalar: {@code penalty} (-1/0, default, equation 7) or {@code incentive} (0/1)
 * @param noClaimsReward the reward when the Proposer finds nothing to ask (default 0, the authors' convention)
 * @param unparseableReward the reward when the Proposer's output cannot be read (default null: the scalar's failure
 *                       value; the authors' code gives 0, see {@link ZeroToleranceReward})
 */
public record MarchSettings(int samples, int minPairs, int maxPairs, String match, double relTolerance,
                            boolean typedClaims, double temperature, int maxTokens, FailurePolicy policy,
                            int regenerations, ZeroToleranceReward.Scalar scalar, double noClaimsReward,
                            Double unparseableReward) {

    /** The options of {@code march}, with their defaults. */
    public static final List<OptionSpec> OPTIONS = List.of(
            OptionSpec.integer("samples", 3, "Checker samples k, voted per question"),
            OptionSpec.integer("min-pairs", 0, "Proposer: at least this many questions (App. B.4; 0 = A.2 as printed)"),
            OptionSpec.integer("max-pairs", 10, "Proposer: at most this many questions"),
            OptionSpec.choice("match", null, "answer matching (unset: authors, or typed with claims=typed)",
                    "authors", "strict", "typed"),
            OptionSpec.decimal("rel-tol", 1e-6, "relative tolerance of the strict and typed matchers"),
            OptionSpec.choice("claims", "numeric", "numeric claims (the paper) or typed claims (our extension)",
                    "numeric", "typed"),
            OptionSpec.decimal("temperature", 0.6, "sampling temperature of every agent (App. B.1)"),
            OptionSpec.integer("max-tokens", 2048, "output limit per call"),
            OptionSpec.choice("policy", "report", "on a failed verification: report it, abstain, or regenerate",
                    "report", "abstain", "regenerate"),
            OptionSpec.integer("r", 2, "most extra Solver samples under policy=regenerate"),
            OptionSpec.choice("scalar", "penalty", "Zero-Tolerance Reward: penalty -1/0 (eq. 7) or incentive 0/1",
                    "penalty", "incentive").withAlias("-1/0", "penalty").withAlias("0/1", "incentive"),
            OptionSpec.decimal("no-claims-reward", 0.0, "reward when the Proposer finds nothing to ask"),
            OptionSpec.optionalDecimal("unparseable-reward",
                    "reward when the Proposer's output cannot be read (unset: the scalar's failure value)"));

    public MarchSettings {
        if (samples < 1) {
            throw new IllegalArgumentException("option samples must be >= 1, was " + samples);
        }
        if (minPairs < 0 || maxPairs < 1 || minPairs > maxPairs) {
            throw new IllegalArgumentException("options min-pairs and max-pairs need 0 <= min-pairs <= max-pairs, >= 1; were "
                    + minPairs + " and " + maxPairs);
        }
        if (regenerations < 0) {
            throw new IllegalArgumentException("option r must be >= 0, was " + regenerations);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("option max-tokens must be >= 1, was " + maxTokens);
        }
        AnswerMatcher.byName(match, relTolerance); // validates
    }

    public static MarchSettings defaults() {
        return fromOptions(Map.of());
    }

    /** The defaults overridden by the options; an unknown option or a malformed value is an error naming it. */
    public static MarchSettings fromOptions(Map<String, String> options) {
        return of(MarchMethod.SPEC.resolve(withMaxPairsForMin(options)));
    }

    /**
     * A min-pairs above the default max-pairs, with no max-pairs given, raises max-pairs to it: asking for at least 12
     * questions means up to 12 at least, not an error about a bound the user did not set.
     */
    static Map<String, String> withMaxPairsForMin(Map<String, String> options) {
        String min = options.get("min-pairs");
        if (min == null || options.containsKey("max-pairs")) {
            return options;
        }
        try {
            if (Integer.parseInt(min.strip()) <= defaults().maxPairs()) {
                return options;
            }
        } catch (NumberFormatException e) {
            return options; // resolving the options says what is wrong with it
        }
        Map<String, String> raised = new java.util.LinkedHashMap<>(options);
        raised.put("max-pairs", min.strip());
        return raised;
    }

    /** The settings of resolved options. */
    static MarchSettings of(MethodOptions o) {
        boolean typed = o.string("claims").equals("typed");
        return new MarchSettings(o.intValue("samples"), o.intValue("min-pairs"), o.intValue("max-pairs"),
                o.has("match") ? o.string("match") : typed ? "typed" : "authors", o.doubleValue("rel-tol"), typed,
                o.doubleValue("temperature"), o.intValue("max-tokens"), FailurePolicy.of(o.string("policy")),
                o.intValue("r"), ZeroToleranceReward.Scalar.of(o.string("scalar")), o.doubleValue("no-claims-reward"),
                o.has("unparseable-reward") ? Double.valueOf(o.doubleValue("unparseable-reward")) : null);
    }

    public AnswerMatcher matcher() {
        return AnswerMatcher.byName(match, relTolerance);
    }

    public ZeroToleranceReward ztr() {
        return new ZeroToleranceReward(scalar, noClaimsReward, unparseableReward);
    }

    /** The Error Rate Reward with the same no-claims value; unparseable gets -1 unless set. */
    public ErrorRateReward errorRateReward() {
        return new ErrorRateReward(noClaimsReward, unparseableReward == null ? -1.0 : unparseableReward);
    }

    public MarchSettings withSamples(int k) {
        return new MarchSettings(k, minPairs, maxPairs, match, relTolerance, typedClaims, temperature, maxTokens, policy,
                regenerations, scalar, noClaimsReward, unparseableReward);
    }
}
