package dev.veracity.eval.judge;

import dev.veracity.method.PromptTemplate;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.CallContext;
import java.util.Map;

/**
 * The CRAG-style outcome judge of TruthRL: the prompt of TruthRL, Appendix B, Table 11 ("LLM-as-a-judge Prompt
 * (Outcome)"), verbatim in {@code crag_outcome.txt}, answering a JSON blob {@code {"explanation", "score"}}.
 *
 * <p>The prompt asks for few-shot {@code {examples}}, which TruthRL does not print: the default examples
 * ({@code crag_examples.txt}) are <b>ours</b>, written in the CRAG style; pass your own with
 * {@link #CragJudge(LlmClient, JudgeOptions, String)}.
 *
 * <p>Per gold answer, as TruthRL does ("else LLM judge per gold"): correct when any gold is judged correct
 * ({@link LlmJudge#perGold}). Outputs are read by {@link ScoreJsonParser} (last JSON block with a "score").
 * Table 11 shows no query time, so none is sent. Default sampling: one greedy sample ({@link JudgeOptions#defaults()}).
 */
public final class CragJudge extends LlmJudge {

    private static final PromptTemplate PROMPT = PromptTemplate.resource(CragJudge.class, "crag_outcome.txt");
    /** Our few-shot examples (not from TruthRL or CRAG). */
    public static final String DEFAULT_EXAMPLES = PromptTemplate.resource(CragJudge.class, "crag_examples.txt").text();

    private final String examples;

    public CragJudge(LlmClient client) {
        this(client, JudgeOptions.defaults());
    }

    public CragJudge(LlmClient client, JudgeOptions options) {
        this(client, options, DEFAULT_EXAMPLES);
    }

    public CragJudge(LlmClient client, JudgeOptions options, String examples) {
        super(client, options);
        this.examples = examples == null ? "" : examples;
    }

    /** The prompt for one gold answer. */
    public String prompt(JudgeInput in, String gold) {
        return PROMPT.fill(Map.of("examples", examples, "question", in.question(), "ground truth", gold,
                "predicted answer", in.prediction()));
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
        return "crag";
    }
}
