package dev.veracity.methods.march;

import java.util.Collection;

/**
 * The consistency rate of a set of answers: the share whose verification passes, i.e. whose Zero-Tolerance Reward
 * takes its success value (equation 7: "a trajectory is assigned a successful score only if every claim a_i ...
 * achieves an identity match with the consensus answer"). The paper reports the reward and accuracy, not this rate
 * by name; we define it as the mean of that success indicator. Answers without claims pass vacuously (the authors'
 * reward 0 for no pairs) and are counted apart in {@code withoutClaims} so that a reader can exclude them. Answers
 * whose Proposer output could not be read are not consistent and are counted in {@code unparseable}.
 *
 * @param answers       answers verified
 * @param consistent    answers whose verification passed (no claim a fault)
 * @param withoutClaims of those, answers with no claim at all
 * @param unparseable   answers not verified because the Proposer's output could not be read
 * @param rate          consistent / answers (0 when there are none)
 */
public record ConsistencyRate(int answers, int consistent, int withoutClaims, int unparseable, double rate) {

    public static ConsistencyRate of(Collection<Verification> verifications) {
        int n = verifications.size();
        int ok = (int) verifications.stream().filter(Verification::consistent).count();
        int empty = (int) verifications.stream().filter(v -> v.status() == Verification.Status.NO_CLAIMS).count();
        int bad = (int) verifications.stream().filter(v -> v.status() == Verification.Status.UNPARSEABLE).count();
        return new ConsistencyRate(n, ok, empty, bad, n == 0 ? 0.0 : (double) ok / n);
    }

    /** Over the final attempts of MARCH outcomes. */
    public static ConsistencyRate ofOutcomes(Collection<MarchOutcome> outcomes) {
        return of(outcomes.stream().map(o -> o.last().verification()).toList());
    }
}
