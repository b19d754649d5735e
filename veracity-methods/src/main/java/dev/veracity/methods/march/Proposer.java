package dev.veracity.methods.march;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;

/**
 * The Proposer, equation 4: it sees the response and nothing else (no documents) and atomises it into
 * question-answer pairs with the prompt of Appendix A.2, plus the B.4 constraint "no fewer than k questions" when
 * {@code min-pairs} > 0. One call per verification.
 */
public final class Proposer {

    private final MarchSettings settings;

    public Proposer(MarchSettings settings) {
        this.settings = settings;
    }

    public String prompt(String response) {
        var template = settings.typedClaims() ? MarchPrompts.PROPOSER_TYPED : MarchPrompts.PROPOSER;
        return template.fill(Map.of("response", response == null ? "" : response,
                "constraint", MarchPrompts.constraint(settings.minPairs(), settings.maxPairs())));
    }

    public Result propose(LlmClient llm, CallContext ctx, String response) {
        String prompt = prompt(response);
        LlmRequest request = LlmRequest.user(prompt).temperature(settings.temperature())
                .maxTokens(settings.maxTokens()).build();
        Completion sample = llm.call(ctx, request).first();
        String out = sample.text();
        ClaimParser.Result parsed = ClaimParser.parse(out);
        if (parsed.status() == ClaimParser.Status.UNPARSEABLE) {
            llm.markUnparseable(request, sample, "no question-answer pair");
        }
        ClaimParser.Status status = parsed.status();
        if (status == ClaimParser.Status.UNPARSEABLE && !settings.typedClaims() && !hasDigit(response)) {
            // numeric claims of a response without a digit: there was nothing to claim, whatever the Proposer wrote
            status = ClaimParser.Status.NO_CLAIMS;
        }
        return new Result(new Turn("proposer", 0, prompt, out, sample), parsed.claims(), parsed.problems(), status);
    }

    private static boolean hasDigit(String s) {
        return s != null && s.chars().anyMatch(Character::isDigit);
    }

    /** The call, the pairs parsed from it, and whether the output was readable. */
    public record Result(Turn turn, List<Claim> claims, List<String> problems, ClaimParser.Status status) {
        public Result {
            claims = List.copyOf(claims);
            problems = List.copyOf(problems);
        }

        /** The Proposer's output could not be read: the response was not verified. */
        public boolean unparseable() {
            return status == ClaimParser.Status.UNPARSEABLE;
        }
    }
}
