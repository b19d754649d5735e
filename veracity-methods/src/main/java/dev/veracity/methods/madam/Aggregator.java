package dev.veracity.methods.madam;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The aggregator A (Section 4): reads every agent's response of a round, shuffled against position bias, and
 * answers with "All Correct Answers: [...]. Explanation: ..." (Appendix E, with its one-shot example).
 */
public final class Aggregator {

    private Aggregator() {
    }

    /** One aggregation call, traced as role "aggregator", step = round. */
    public static AggregatorOutput aggregate(String question, String questionId, List<AgentOutput> outputs, int round,
                                             MadamSettings settings, MethodContext ctx, List<String> documents) {
        List<AgentOutput> order = new ArrayList<>(outputs);
        if (settings.shuffle()) {
            // Deterministic per question and round, so a rerun hits the response cache.
            Collections.shuffle(order, new Random(31L * questionId.hashCode() + round));
        }
        StringBuilder responses = new StringBuilder();
        for (int i = 0; i < order.size(); i++) {
            if (i > 0) {
                responses.append("\n\n");
            }
            responses.append("Agent ").append(i + 1).append(": ").append(order.get(i).shown());
        }
        String prompt = MadamPrompts.AGGREGATOR.fill(Map.of("question", question, "agent responses list", responses.toString()));
        LlmRequest request = LlmRequest.user(prompt).temperature(0.0).maxTokens(settings.maxTokens()).build();
        Completion out = ctx.llm().call(ctx.role("aggregator", round), request).first();
        AggregatorOutput parsed = AggregatorOutputParser.parse(out.text(), documents);
        if (!parsed.parsed()) {
            ctx.llm().markUnparseable(request, out, "no 'All Correct Answers'");
        }
        return parsed;
    }

    /**
     * The ablation without an aggregator (Section 6.1): "all agent responses are concatenated to produce a naive
     * joint answer": the distinct answers of the agents, "unknown" and empty answers left out.
     */
    public static AggregatorOutput join(List<AgentOutput> outputs) {
        LinkedHashSet<String> answers = new LinkedHashSet<>();
        for (AgentOutput o : outputs) {
            String n = AgentOutputParser.normalized(o.answer());
            if (!n.isEmpty() && !n.equals("unknown") && answers.stream().map(AgentOutputParser::normalized).noneMatch(n::equals)) {
                answers.add(o.answer());
            }
        }
        return new AggregatorOutput(List.copyOf(answers), "answers of the agents, joined (no aggregator)", "", true);
    }
}
