package dev.veracity.eval.judge;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.PromptTemplate;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * TruthRL's reasoning-quality judge: whether a response's reasoning gives precise, relevant information to answer the
 * question; a JSON {@code "score"} of 1 or 0, read by {@link ScoreJsonParser}. It grades what the authors grade
 * ({@code truthrl_qa.py}'s {@code compute_process_score}): the whole response, {@code <think>} block and boxed answer
 * together (their examples show exactly that), so {@link JudgeInput#prediction()} is the whole response.
 *
 * <p>By default ({@link JudgePrompt#AUTHORS}) the system message is the authors' {@code INSTRUCTIONS_REASONING + "\n"
 * + IN_CONTEXT_EXAMPLES_REASONING} ({@code truthrl_reasoning_system.txt}, 3 examples) and the user message
 * {@code "Question: {query}\n Ground Truth: {gt}\n Reasoning: {response}\n"}; {@link JudgePrompt#PAPER} sends the
 * paper's text (Appendix B, Table 12, {@code reasoning_quality.txt}) with the authors' examples. Per gold answer like
 * the outcome judge: the reasoning is useful when it is for one of them. It feeds the reasoning-enhanced rewards
 * (section 4.6), not a dataset metric, so it is not among {@link Judges#names()}.
 */
public final class ReasoningJudge extends LlmJudge {

    private static final PromptTemplate PAPER = PromptTemplate.resource(ReasoningJudge.class, "reasoning_quality.txt");
    /** The authors' system message for the reasoning judge ({@code prompts.py}). */
    public static final String AUTHORS_SYSTEM = PromptTemplate.resource(ReasoningJudge.class,
            "truthrl_reasoning_system.txt").text();
    /** The authors' reasoning examples alone, for the paper's {@code {examples}}. */
    public static final String AUTHORS_EXAMPLES = CragJudge.examplesOf(AUTHORS_SYSTEM);

    private final JudgePrompt text;

    public ReasoningJudge(LlmClient client, JudgeOptions options) {
        this(client, options, JudgePrompt.AUTHORS);
    }

    public ReasoningJudge(LlmClient client, JudgeOptions options, JudgePrompt text) {
        super(client, options);
        this.text = Objects.requireNonNull(text, "text");
    }

    /** The messages for one gold answer; the input's prediction is the whole response. */
    public List<ChatMessage> messages(JudgeInput in, String gold) {
        return switch (text) {
            case AUTHORS -> List.of(ChatMessage.system(AUTHORS_SYSTEM), ChatMessage.user("Question: " + in.question()
                    + "\n Ground Truth: " + gold + "\n Reasoning: " + in.prediction() + "\n"));
            case PAPER -> List.of(ChatMessage.user(PAPER.fill(Map.of("examples", AUTHORS_EXAMPLES, "question",
                    in.question(), "ground truth", gold, "predicted reasoning", in.prediction()))));
        };
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
        return "truthrl-reasoning";
    }
}
