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
import dev.veracity.methods.madam.AggregatorOutput;
import dev.veracity.qa.AnswerSetParser;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Map;

/**
 * Closed book: the question alone. Multi-answer tasks get MADAM-RAG's "No RAG" prompt (Appendix E), others Reasoning
 * Court's concise standard prompting (Appendix B.1); on FEVER that prompt names the three labels and gives the claim.
 * Greedy decoding, as both papers' baselines.
 */
public final class NoRag implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("no-rag",
            "Closed book: the question alone, greedy.", "MADAM-RAG / Reasoning Court",
            "MADAM-RAG App. E (No RAG, multi-answer); Reasoning Court App. B.1 (standard prompting)",
            List.of(OptionSpec.integer("max-tokens", 512, "output limit per call"),
                    OptionSpec.bool("concise", true, "Reasoning Court's concise instruction (B.1); false: its prompt"
                            + " with no conciseness specified (the A.1 ablation); single-answer datasets only")))
            .withNeeds(); // closed book: the question alone

    /** The one call's prompt, for training data. */
    static final RolePrompt ANSWERER = RolePrompt.of("answerer",
            "the question alone (MADAM-RAG App. E No RAG for multi-answer datasets, else Reasoning Court App. B.1)",
            (item, c) -> List.of(new AgentPrompt("answerer", messages(item, c.dataset(), c.multiAnswer(),
                    SPEC.resolve(c.options()).bool("concise")))));

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
        return List.of(ANSWERER);
    }

    /**
     * What the call sends: one user message (concise: Reasoning Court's B.1 instruction; else A.1's plain prompt; on
     * FEVER either with the labels).
     */
    static List<ChatMessage> messages(QaItem item, String dataset, boolean multiAnswer, boolean concise) {
        return List.of(ChatMessage.user((multiAnswer ? BaselinePrompts.NO_RAG_MULTI
                : BaselinePrompts.standardFor(dataset, concise)).fill(Map.of("question", item.question()))));
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        var options = SPEC.resolve(ctx.options());
        LlmRequest request = LlmRequest.chat(messages(item, ctx.dataset(), ctx.multiAnswer(), options.bool("concise")))
                .temperature(0.0).maxTokens(options.intValue("max-tokens")).build();
        Completion sample = ctx.llm().call(ctx.role("answerer", 0), request).first();
        return ShortAnswer.markIfUnparsed(ctx, request, sample, read(sample.text(), ctx));
    }

    private static MethodAnswer read(String out, MethodContext ctx) {
        if (ctx.multiAnswer()) {
            // "respond with the exact answer only ... list them all": a plain list (a marker or brackets if given)
            List<String> answers = AnswerSetParser.parse(out);
            return new AggregatorOutput(answers, "", out, true).answer("answerer",
                    answers.isEmpty() ? List.of("empty answer: '" + out.strip() + "'") : List.of());
        }
        return ShortAnswer.answer(out);
    }
}
