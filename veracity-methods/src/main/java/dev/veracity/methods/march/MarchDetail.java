package dev.veracity.methods.march;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.veracity.method.DetailKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What MARCH decided about an answer, as a run keeps it (the result line's {@code details.march}): the verdict on the
 * checked response ({@link Verification.Status#label()}), the attempts made, and each claim the Proposer wrote with
 * every Checker sample's answer, the vote and the claim's verdict. The report's question page reads it.
 *
 * @param verdict  {@code passed}, {@code failed}, {@code no_claims} or {@code unparseable}
 * @param attempts the responses checked (more than one under {@code policy=regenerate})
 * @param faults   the claims that are faults
 * @param claims   the claims of the last response checked, in the Proposer's order
 */
@JsonPropertyOrder({"verdict", "attempts", "faults", "claims"})
public record MarchDetail(String verdict, int attempts, int faults, List<ClaimDetail> claims) {

    /** The detail's key: {@code details.march} in a result line. */
    public static final DetailKey<MarchDetail> KEY = DetailKey.of("march", MarchDetail.class);

    public MarchDetail {
        verdict = Objects.requireNonNullElse(verdict, "");
        claims = claims == null ? List.of() : List.copyOf(claims);
    }

    /**
     * One claim after checking.
     *
     * @param number         its number in the Proposer's list (the Checker's question number)
     * @param question       the Proposer's question
     * @param claimedAnswer  the answer the response claims
     * @param checkerAnswers each Checker sample's answer, in sample order ("" where a sample gave none)
     * @param vote           +1 per matching sample, -1 otherwise
     * @param verdict        {@code confirmed} or {@code fault}
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"number", "question", "claimed_answer", "checker_answers", "vote", "verdict"})
    public record ClaimDetail(int number, String question, String claimedAnswer, List<String> checkerAnswers, int vote,
                              String verdict) {
        public ClaimDetail {
            question = Objects.requireNonNullElse(question, "");
            claimedAnswer = Objects.requireNonNullElse(claimedAnswer, "");
            checkerAnswers = checkerAnswers == null ? List.of()
                    : checkerAnswers.stream().map(a -> Objects.requireNonNullElse(a, "")).toList();
            verdict = Objects.requireNonNullElse(verdict, "");
        }
    }

    /** The detail of a verification, the last of {@code attempts}. */
    public static MarchDetail of(Verification v, int attempts) {
        List<ClaimDetail> claims = new ArrayList<>();
        for (ClaimCheck c : v.claims()) {
            claims.add(new ClaimDetail(c.claim().number(), c.claim().question(), c.claim().answer(),
                    c.answers().stream().map(a -> a == null ? "" : a.answer()).toList(), c.vote(), c.verdict()));
        }
        return new MarchDetail(v.status().label(), attempts, v.faults(), claims);
    }
}
