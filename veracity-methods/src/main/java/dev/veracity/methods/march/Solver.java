package dev.veracity.methods.march;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.qa.Document;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;

/** The Solver, equation 3: a response to the query from the documents, with the prompt of Appendix A.1. */
public final class Solver {

    private final MarchSettings settings;

    public Solver(MarchSettings settings) {
        this.settings = settings;
    }

    public static String prompt(String question, List<Document> documents) {
        return MarchPrompts.SOLVER.fill(Map.of("documents", MarchPrompts.documents(documents), "user query", question));
    }

    /** What the Solver sends: its prompt as one user message. */
    public static List<ChatMessage> messages(String question, List<Document> documents) {
        return List.of(ChatMessage.user(prompt(question, documents)));
    }

    /** One response; {@code sample} picks a distinct sample (for regeneration). */
    public Turn solve(LlmClient llm, CallContext ctx, String question, List<Document> documents, int sample) {
        List<ChatMessage> messages = messages(question, documents);
        String prompt = messages.getFirst().content();
        var out = llm.call(ctx, LlmRequest.chat(messages).temperature(settings.temperature())
                .maxTokens(settings.maxTokens()).firstSampleIndex(sample).build()).first();
        return new Turn("solver", sample, prompt, out.text(), out);
    }
}
