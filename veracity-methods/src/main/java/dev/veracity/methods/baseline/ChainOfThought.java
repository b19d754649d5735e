package dev.veracity.methods.baseline;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.AgentPrompt;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.method.RolePrompt;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chain-of-thought, closed book, with Reasoning Court's few-shot CoT prompt for the dataset (Appendix B.2):
 * "Thought: ... Answer: ...". Temperature 0, as the paper sets for every method but CoT-SC. The few-shot prompt goes
 * as one user message by default (every OpenAI-compatible server has the chat endpoint; many have no
 * {@code /v1/completions}); {@code endpoint=completions} sends it as a raw continuation, as ReAct's code did.
 */
public final class ChainOfThought implements QaMethod {

    /** Chat by default; completions only when asked (a chat-only server answers /v1/completions with 404). */
    static final OptionSpec ENDPOINT = OptionSpec.choice("endpoint", "chat",
            "chat (the prompt as one user message) or completions (a raw continuation)", "chat", "completions");

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("cot",
            "Closed-book chain of thought with the dataset's few-shot prompt, greedy.", "Reasoning Court",
            "App. B.2", List.of(OptionSpec.integer("max-tokens", 256, "output limit per call"), ENDPOINT))
            .withNeeds(); // closed book: the question alone

    /** The reasoner's prompt as the chat endpoint gets it (cot and cot-sc), for training data. */
    static final RolePrompt REASONER = RolePrompt.of("reasoner",
            "the dataset's few-shot chain-of-thought prompt as one user message (Reasoning Court App. B.2)",
            (item, c) -> List.of(new AgentPrompt("reasoner", messages(item, c.dataset()))));

    @Override
    public String name() {
        return SPEC.name();
    }

    @Override
    public MethodSpec spec() {
        return SPEC;
    }

    @Override
    public List<RolePrompt> rolePrompts() {
        return List.of(REASONER);
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        var options = SPEC.resolve(ctx.options());
        LlmRequest request = request(item, ctx.dataset(), options.intValue("max-tokens"), options.string("endpoint"))
                .temperature(0.0).build();
        Completion sample = ctx.llm().call(ctx.role("reasoner", 0), request).first();
        String out = sample.text();
        Optional<String> answer = ShortAnswer.afterAnswerLine(out);
        return ShortAnswer.markIfUnparsed(ctx, request, sample, answer.map(a -> new MethodAnswer(a, List.of(a), List.of()))
                .orElseGet(() -> new MethodAnswer("", List.of(), List.of("no 'Answer:' line in: '" + out + "'")))
                .withRaw(out));
    }

    /** The few-shot CoT request for the item (no sampling settings yet): Reasoning Court's CoT judge reuses it. */
    public static LlmRequest.Builder request(QaItem item, MethodContext ctx, int maxTokens, String endpoint) {
        return request(item, ctx.dataset(), maxTokens, endpoint);
    }

    static LlmRequest.Builder request(QaItem item, String dataset, int maxTokens, String endpoint) {
        LlmRequest.Builder b = endpoint.equals("completions") ? LlmRequest.completion(prompt(item, dataset))
                : LlmRequest.chat(messages(item, dataset));
        return b.stop(BaselinePrompts.COT_STOPS).maxTokens(maxTokens);
    }

    /** The few-shot prompt as the chat endpoint gets it: one user message. */
    static List<ChatMessage> messages(QaItem item, String dataset) {
        return List.of(ChatMessage.user(prompt(item, dataset)));
    }

    private static String prompt(QaItem item, String dataset) {
        return BaselinePrompts.cotFor(dataset).fill(Map.of("question", item.question()));
    }
}
