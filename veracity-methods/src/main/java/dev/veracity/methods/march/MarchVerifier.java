package dev.veracity.methods.march;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.qa.Document;
import dev.veracity.trace.CallContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a response against documents: Proposer once, then k Checker samples concurrently on the questions alone,
 * then a vote per claim (section 2.3, "majority voting to determine the final consensus answer"; the authors' code:
 * +1/-1 per sample, a fault when the sum is below 0). Calls: 1 + k, or 1 when the Proposer gives no pair (there
 * is nothing to check, and the reward is the no-claims value).
 */
public final class MarchVerifier {

    private final MarchSettings settings;
    private final Proposer proposer;
    private final Checker checker;
    private final AnswerMatcher matcher;

    public MarchVerifier(MarchSettings settings) {
        this.settings = settings;
        this.proposer = new Proposer(settings);
        this.checker = new Checker(settings);
        this.matcher = settings.matcher();
    }

    public MarchSettings settings() {
        return settings;
    }

    /**
     * @param calls the call context of the question (role and step are set here: proposer / checker, step =
     *              {@code attempt})
     */
    public Verification verify(LlmClient llm, CallContext calls, int attempt, String response, List<Document> documents) {
        return verify(llm, llm, calls, attempt, response, documents);
    }

    /**
     * @param trained   the client of the calls MARCH trains: Checker sample 0
     * @param untrained the client of the calls it does not: the Proposer and Checker samples 1..k-1 (online training
     *                  keeps them out of the trainer's sessions; elsewhere the same client)
     */
    public Verification verify(LlmClient trained, LlmClient untrained, CallContext calls, int attempt, String response,
                               List<Document> documents) {
        Proposer.Result proposed = proposer.propose(untrained, calls.role("proposer").step(attempt), response);
        if (proposed.claims().isEmpty()) {
            return new Verification(response, proposed, List.of(), List.of());
        }
        CheckerInput input = new CheckerInput(documents, proposed.claims().stream().map(Claim::question).toList());
        List<Checker.Sample> samples = checker.check(trained, untrained, calls.role("checker").step(attempt), input);
        return new Verification(response, proposed, samples, vote(proposed.claims(), samples, matcher));
    }

    public Verification verify(LlmClient llm, CallContext calls, String response, List<Document> documents) {
        return verify(llm, calls, 0, response, documents);
    }

    /** The vote per claim; claim i is question i of every sample. */
    static List<ClaimCheck> vote(List<Claim> claims, List<Checker.Sample> samples, AnswerMatcher matcher) {
        List<ClaimCheck> out = new ArrayList<>();
        for (Claim c : claims) {
            List<CheckerAnswer> answers = new ArrayList<>();
            int vote = 0;
            for (Checker.Sample s : samples) {
                CheckerAnswer a = s.parsed().answer(c.number()).orElse(null);
                answers.add(a);
                vote += a != null && !a.cannotAnswer() && matcher.matches(c.answer(), a.answer()) ? 1 : -1;
            }
            out.add(new ClaimCheck(c, answers, vote));
        }
        return out;
    }
}
