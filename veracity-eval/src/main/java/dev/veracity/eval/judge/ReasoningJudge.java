package dev.veracity.eval.judge;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.PromptTemplate;
import dev.veracity.trace.CallContext;
import java.util.Map;

/**
 * TruthRL's reasoning-quality judge (Appendix B, Table 12, verbatim in {@code reasoning_quality.txt}): whether a
 * response's reasoning gives precise, relevant information to answer the question; a JSON {@code "score"} of 1 or 0,
 * read by {@link ScoreJsonParser}. The {@link JudgeInput#prediction()} is the reasoning (the response's
 * {@code <think>} block). The few-shot examples are ours ({@code reasoning_examples.txt}); TruthRL prints none. Per
 * gold answer like the outcome judge: the reasoning is useful when it is for one of them. It feeds the
 * reasoning-enhanced rewards (section 4.6), not a dataset metric, so it is not among {@link Judges#names()}.
 */
public final class ReasoningJudge extends LlmJudge {

    private static final PromptTemplate PROMPT = PromptTemplate.resource(ReasoningJudge.class, "reasoning_quality.txt");
    /** Our few-shot examples (not from TruthRL). */
    public static final String DEFAULT_EXAMPLES = PromptTemplate.resource(ReasoningJudge.class, "reasoning_examples.txt")
            .text();

    public ReasoningJudge(LlmClient client, JudgeOptions options) {
        super(client, options);
    }

    /** The prompt for one gold answer. */
    public String prompt(JudgeInput in, String gold) {
        return PROMPT.fill(Map.of("examples", DEFAULT_EXAMPLES, "question", in.question(), "ground truth", gold,
                "predicted reasoning", in.prediction()));
    }

    @Override
    public Parsed parse(String output) {
        return ScoreJsonParser.parse(output);
    }

    @Override
    protected Verdict decide(JudgeInput in, CallContext ctx) {
        return perGold(in, ctx, gold -> prompt(in, gold));
    }

    @Override
    public String name() {
        return "truthrl-reasoning";
    }
}
