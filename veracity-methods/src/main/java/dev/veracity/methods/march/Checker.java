package dev.veracity.methods.march;

import dev.veracity.concurrent.Parallel;
import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The Checker, equation 5: answers the questions from the documents with the prompt of Appendix A.3, blind to the
 * response and the claimed answers (its only input is a {@link CheckerInput}). Sampled k times as k concurrent calls
 * (sample indices 0..k-1, so each is a distinct cached sample), as the authors sample it.
 */
public final class Checker {

    private final MarchSettings settings;

    public Checker(MarchSettings settings) {
        this.settings = settings;
    }

    public String prompt(CheckerInput input) {
        var template = settings.typedClaims() ? MarchPrompts.CHECKER_TYPED : MarchPrompts.CHECKER;
        return template.fill(Map.of("docs", MarchPrompts.documents(input.documents()),
                "questions", MarchPrompts.questions(input.questions())));
    }

    public List<Sample> check(LlmClient llm, CallContext ctx, CheckerInput input) {
        return check(llm, llm, ctx, input);
    }

    /**
     * @param trained the client of sample 0, the one Checker trajectory MARCH trains
     * @param votes   the client of samples 1..k-1, which only vote (the same client outside online training)
     */
    public List<Sample> check(LlmClient trained, LlmClient votes, CallContext ctx, CheckerInput input) {
        String prompt = prompt(input);
        return Parallel.map(IntStream.range(0, settings.samples()).boxed().toList(), i -> {
            LlmClient llm = i == 0 ? trained : votes;
            LlmRequest request = LlmRequest.user(prompt).temperature(settings.temperature())
                    .maxTokens(settings.maxTokens()).firstSampleIndex(i).build();
            Completion sample = llm.call(ctx, request).first();
            CheckerOutput parsed = CheckerOutputParser.parse(sample.text(), input.questions().size());
            if (parsed.answers().isEmpty()) {
                llm.markUnparseable(request, sample, "no answer");
            }
            return new Sample(new Turn("checker", i, prompt, sample.text(), sample), parsed);
        });
    }

    /** One Checker sample and its parsed answers. */
    public record Sample(Turn turn, CheckerOutput parsed) {
    }
}
