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
import dev.veracity.methods.madam.AggregatorOutputParser;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Map;

/**
 * Standard RAG: every document concatenated into one prompt. Multi-answer tasks use MADAM-RAG's "Concatenated
 * Prompt" with its one-shot example (Appendix E); the reply's "All Correct Answers: [...]" line is the prediction.
 * Other tasks put the documents before Reasoning Court's concise-answer instruction (Appendix B.1); the answer is
 * read as for the closed-book baseline ({@link ShortAnswer#direct}). Results keep the raw output beside it.
 */
public final class StandardRag implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("standard-rag",
            "Every document concatenated into one prompt, greedy.", "MADAM-RAG / Reasoning Court",
            "MADAM-RAG App. E (Concatenated Prompt, multi-answer); Reasoning Court App. B.1",
            List.of(OptionSpec.integer("max-tokens", 1024, "output limit per call")));

    /** The one call's prompt, for training data. */
    static final RolePrompt ANSWERER = RolePrompt.of("answerer",
            "every document in one prompt (MADAM-RAG App. E Concatenated Prompt for multi-answer datasets, else"
                    + " Reasoning Court App. B.1)",
            (item, c) -> List.of(new AgentPrompt("answerer", messages(item, c.dataset(), c.multiAnswer()))));

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

    /** What the call sends: one user message with every document (on FEVER, the prompt names the labels). */
    static List<ChatMessage> messages(QaItem item, String dataset, boolean multiAnswer) {
        String docs = BaselinePrompts.documents(item.documents());
        return List.of(ChatMessage.user(multiAnswer
                ? BaselinePrompts.CONCATENATED.fill(Map.of("question", item.question(), "documents list", docs))
                : BaselinePrompts.standardRagFor(dataset).fill(Map.of("question", item.question(), "documents", docs))));
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        LlmRequest request = LlmRequest.chat(messages(item, ctx.dataset(), ctx.multiAnswer())).temperature(0.0).maxTokens(SPEC.resolve(ctx.options()).intValue("max-tokens")).build();
        Completion out = ctx.llm().call(ctx.role("answerer", 0), request).first();
        // multi-answer: the aggregator's answer extraction (the first unquoted marker, never one copied from a document)
        MethodAnswer answer = ctx.multiAnswer()
                ? AggregatorOutputParser.parse(out.text(), item.documents().stream().map(Document::titled).toList())
                        .answer("answerer", List.of())
                : ShortAnswer.answer(out.text());
        return ShortAnswer.markIfUnparsed(ctx, request, out, answer);
    }
}
