package dev.veracity.methods.madam;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.Document;
import java.util.Map;

/**
 * One agent L_i, bound to one document d_i (Section 4): round 1 sees the question and its document only; later
 * rounds also see {@code history} (Appendix E's optional lines). Greedy decoding, as the authors'.
 *
 * @param index    the agent's number, from 1
 * @param document its document
 */
public record Agent(int index, Document document) {

    /** Asks the model; {@code history} is null in round 1. Calls are traced as role "agent-i", step = round. */
    public AgentOutput respond(String question, String history, int round, MadamSettings settings, MethodContext ctx) {
        String doc = document.titled();
        String prompt = history == null
                ? MadamPrompts.AGENT.fill(Map.of("question", question, "document", doc))
                : MadamPrompts.AGENT_DEBATE.fill(Map.of("question", question, "document", doc, "history", history));
        LlmRequest request = LlmRequest.user(prompt).temperature(0.0).maxTokens(settings.maxTokens()).build();
        Completion out = ctx.llm().call(ctx.role("agent-" + index, round), request).first();
        AgentOutput parsed = AgentOutputParser.parse(out.text(), question);
        if (!parsed.parsed()) {
            ctx.llm().markUnparseable(request, out, "no 'Answer:'");
        }
        return parsed;
    }
}
