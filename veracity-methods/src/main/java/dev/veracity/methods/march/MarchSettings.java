package dev.veracity.methods.march;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * MARCH's settings, from method options ({@code --option name=value}).
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

    private static final Set<String> KNOWN = new TreeSet<>(Set.of("samples", "min-pairs", "max-pairs", "match",
            "rel-tol", "claims", "temperature", "max-tokens", "policy", "r", "scalar", "no-claims-reward",
            "unparseable-reward"));

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
        return new MarchSettings(3, 0, 10, "authors", 1e-6, false, 0.6, 2048, FailurePolicy.REPORT, 2,
                ZeroToleranceReward.Scalar.PENALTY, 0.0, null);
    }

    /** The defaults overridden by the options; an unknown option or a malformed value is an error naming it. */
    public static MarchSettings fromOptions(Map<String, String> options) {
        Map<String, String> o = options == null ? Map.of() : options;
        for (String k : o.keySet()) {
            if (!KNOWN.contains(k)) {
                throw new IllegalArgumentException("unknown march option '" + k + "'; known: " + String.join(", ", KNOWN));
            }
        }
        MarchSettings d = defaults();
        String claims = o.getOrDefault("claims", "numeric").toLowerCase(Locale.ROOT).strip();
        if (!claims.equals("numeric") && !claims.equals("typed")) {
            throw new IllegalArgumentException("option claims must be numeric or typed, was '" + claims + "'");
        }
        boolean typed = claims.equals("typed");
        String scalar = o.getOrDefault("scalar", "penalty").toLowerCase(Locale.ROOT).strip();
        return new MarchSettings(integer(o, "samples", d.samples()), integer(o, "min-pairs", d.minPairs()),
                integer(o, "max-pairs", d.maxPairs()), o.getOrDefault("match", typed ? "typed" : d.match()),
                decimal(o, "rel-tol", d.relTolerance()), typed, decimal(o, "temperature", d.temperature()),
                integer(o, "max-tokens", d.maxTokens()), FailurePolicy.of(o.getOrDefault("policy", "report")),
                integer(o, "r", d.regenerations()), ZeroToleranceReward.Scalar.of(scalar),
                decimal(o, "no-claims-reward", d.noClaimsReward()),
                o.containsKey("unparseable-reward") ? Double.valueOf(decimal(o, "unparseable-reward", 0)) : d.unparseableReward());
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

    private static int integer(Map<String, String> o, String name, int dflt) {
        String v = o.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + name + " must be an integer, was '" + v + "'");
        }
    }

    private static double decimal(Map<String, String> o, String name, double dflt) {
        String v = o.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + name + " must be a number, was '" + v + "'");
        }
    }
}
