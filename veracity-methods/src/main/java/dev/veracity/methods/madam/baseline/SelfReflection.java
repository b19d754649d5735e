package dev.veracity.methods.madam.baseline;

import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.MethodSpec;
import dev.veracity.methods.madam.AggregatorOutputParser;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Map;

/**
 * {@code self-reflection}: "Single Agent with Self-reflection" (Section 5.1, after Madaan et al. 2023 and Huang et
 * al. 2024): an initial answer over all documents (Appendix E's prompt with its one-shot example), then a review
 * of the answer and a refined answer; "two rounds of self-reflection" (option {@code rounds}, default 2), so
 * 1 + 2 x 2 = 5 calls. The review of round 2 reviews round 1's refined answer. Greedy decoding.
 */
public final class SelfReflection implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("self-reflection",
            "One agent over all documents, then review and refine, greedy.", "MADAM-RAG",
            "Section 5.1 (baselines), prompts of App. E", List.of(
                    OptionSpec.integer("rounds", 2, "self-reflection rounds (review + refine)"),
                    OptionSpec.integer("max-tokens", 512, "output limit per call")));

    @Override
    public String name() {
        return SPEC.name();
    }

    @Override
    public MethodSpec spec() {
        return SPEC;
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        MethodOptions o = SPEC.resolve(ctx.options());
        int rounds = o.intValue("rounds");
        int maxTokens = o.intValue("max-tokens");
        String context = Prompts.documents(item.documents(), "Document");
        String answer = call(ctx, "initial", 0, maxTokens,
                Prompts.SELF_INITIAL.fill(Map.of("question", item.question(), "context", context)));
        for (int r = 1; r <= rounds; r++) {
            String review = call(ctx, "review", r, maxTokens, Prompts.SELF_REVIEW.fill(
                    Map.of("question", item.question(), "context", context, "answer", answer.strip())));
            answer = call(ctx, "refine", r, maxTokens, Prompts.SELF_REFINE.fill(Map.of("question", item.question(),
                    "context", context, "answer", answer.strip(), "review", review.strip())));
        }
        return AggregatorOutputParser.parse(answer, item.documents().stream().map(Document::titled).toList())
                .answer("final refinement", List.of());
    }

    private static String call(MethodContext ctx, String role, int step, int maxTokens, String prompt) {
        return ctx.llm().call(ctx.role(role, step), LlmRequest.user(prompt).temperature(0.0).maxTokens(maxTokens).build())
                .text();
    }
}
