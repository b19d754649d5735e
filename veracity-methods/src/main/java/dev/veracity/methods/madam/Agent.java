package dev.veracity.methods.madam;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One agent L_i, bound to one document d_i (Section 4): round 1 sees the question and its document only; later
 * rounds also see {@code history} (Appendix E's optional lines). Greedy decoding, as the authors'.
 *
 * @param index    the agent's number, from 1
 * @param document its document
 */
public record Agent(int index, Document document) {

    /** One agent per document, numbered from 1 in document order. */
    public static List<Agent> forDocuments(List<Document> documents) {
        List<Agent> agents = new ArrayList<>(documents.size());
        for (int i = 0; i < documents.size(); i++) {
            agents.add(new Agent(i + 1, documents.get(i)));
        }
        return agents;
    }

    /** The agent's name in the traces and in training data: {@code agent-i}. */
    public String name() {
        return "agent-" + index;
    }

    /** What the agent sends: one user message; {@code history} is null in round 1. */
    public List<ChatMessage> messages(String question, String history) {
        String doc = document.titled();
        return List.of(ChatMessage.user(history == null
                ? MadamPrompts.AGENT.fill(Map.of("question", question, "document", doc))
                : MadamPrompts.AGENT_DEBATE.fill(Map.of("question", question, "document", doc, "history", history))));
    }

    /** Asks the model; {@code history} is null in round 1. Calls are traced as role "agent-i", step = round. */
    public AgentOutput respond(String question, String history, int round, MadamSettings settings, MethodContext ctx) {
        LlmRequest request = LlmRequest.chat(messages(question, history)).temperature(0.0)
                .maxTokens(settings.maxTokens()).build();
        Completion out = ctx.llm().call(ctx.role(name(), round), request).first();
        AgentOutput parsed = AgentOutputParser.parse(out.text(), question);
        if (!parsed.parsed()) {
            ctx.llm().markUnparseable(request, out, "no 'Answer:'");
        }
        return parsed;
    }
}
