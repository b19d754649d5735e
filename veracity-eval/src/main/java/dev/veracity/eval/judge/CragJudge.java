package dev.veracity.eval.judge;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.PromptTemplate;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * TruthRL's CRAG-style outcome judge, answering a JSON blob {@code {"explanation", "score"}} read by
 * {@link ScoreJsonParser} (the last JSON block with a "score", as the authors' {@code parse_response} takes the
 * last {@code {...}}).
 *
 * <p>By default ({@link JudgePrompt#AUTHORS}) it sends what the authors' released evaluation sends: the system
 * message {@code INSTRUCTIONS + "\n" + IN_CONTEXT_EXAMPLES} of their {@code prompts.py}, verbatim in
 * {@code truthrl_outcome_system.txt} (36 CRAG examples), and the user message
 * {@code "Question: {query}\n Ground truth: {gt}\n Prediction: {prediction}\n"} of {@code evaluate.py}.
 * {@link JudgePrompt#PAPER} sends the paper's text (Appendix B, Table 11 "LLM-as-a-judge Prompt (Outcome)",
 * verbatim in {@code crag_outcome.txt}) as one user message, its {@code {examples}} filled with the authors' examples.
 *
 * <p>Per gold answer, as the authors do: correct when any gold is judged correct ({@link LlmJudge#perGold}). TruthRL's
 * order around the judge (exact match, abstention, "invalid question" first) is {@link
 * dev.veracity.eval.metrics.TruthRlOrder}'s, which asks this judge one gold at a time. Neither text shows a query
 * time, so none is sent. Default sampling: one greedy sample ({@link JudgeOptions#defaults()}).
 */
public final class CragJudge extends LlmJudge {

    private static final PromptTemplate PAPER = PromptTemplate.resource(CragJudge.class, "crag_outcome.txt");
    /** The authors' system message: their instructions and 36 CRAG examples ({@code prompts.py}). */
    public static final String AUTHORS_SYSTEM = PromptTemplate.resource(CragJudge.class, "truthrl_outcome_system.txt")
            .text();
    /** The authors' examples alone (what follows "Examples:"), for the paper's {@code {examples}}. */
    public static final String AUTHORS_EXAMPLES = examplesOf(AUTHORS_SYSTEM);

    private final JudgePrompt text;

    public CragJudge(LlmClient client) {
        this(client, JudgeOptions.defaults());
    }

    public CragJudge(LlmClient client, JudgeOptions options) {
        this(client, options, JudgePrompt.AUTHORS);
    }

    public CragJudge(LlmClient client, JudgeOptions options, JudgePrompt text) {
        super(client, options);
        this.text = Objects.requireNonNull(text, "text");
    }

    /** The messages for one gold answer. */
    public List<ChatMessage> messages(JudgeInput in, String gold) {
        return switch (text) {
            case AUTHORS -> List.of(ChatMessage.system(AUTHORS_SYSTEM), ChatMessage.user("Question: " + in.question()
                    + "\n Ground truth: " + gold + "\n Prediction: " + in.prediction() + "\n"));
            case PAPER -> List.of(ChatMessage.user(PAPER.fill(Map.of("examples", AUTHORS_EXAMPLES, "question",
                    in.question(), "ground truth", gold, "predicted answer", in.prediction()))));
        };
    }

    /** Which text this judge sends. */
    public JudgePrompt text() {
        return text;
    }

    @Override
    public Parsed parse(String output) {
        return ScoreJsonParser.parse(output);
    }

    @Override
    protected Verdict decide(JudgeInput in, CallContext ctx) {
        return perGold(in, ctx, gold -> messages(in, gold));
    }

    @Override
    public String name() {
        return "crag";
    }

    /** The examples of an authors' system message: the text after its "Examples:" line, without the last newline. */
    static String examplesOf(String system) {
        int at = system.indexOf("\nExamples:\n");
        if (at < 0) {
            throw new IllegalStateException("the authors' judge prompt has no \"Examples:\" line");
        }
        return system.substring(at + "\nExamples:\n".length()).stripTrailing();
    }
}
