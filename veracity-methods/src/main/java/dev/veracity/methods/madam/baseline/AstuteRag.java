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
 * {@code astute-rag}: Astute RAG (Wang et al., 2024a) as MADAM-RAG ran it (Appendix C, prompts of Appendix E):
 * <ol>
 *   <li>adaptive internal passage generation: one call, the model writes a passage from memory (or says it does
 *       not know);</li>
 *   <li>iterative source-aware consolidation: {@code consolidations} calls (option, default 1, i.e. Astute RAG's
 *       t = 2), each regrouping the memorized and retrieved passages, tagged by source, from the initial and the
 *       last context;</li>
 *   <li>finalisation: one call that consolidates, proposes answers with confidence and selects all correct ones.</li>
 * </ol>
 * With {@code consolidations=0} the finalisation prompt runs on the initial context alone (Astute RAG's t = 1).
 * The source tags ("Memorized Document i", "Externally Retrieved Document i") follow the original paper; Appendix E
 * does not give them. The finalisation asks for MADAM-RAG's answer format (our addition; see the resource).
 */
public final class AstuteRag implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("astute-rag",
            "Astute RAG: internal passage, source-aware consolidation, finalisation.", "MADAM-RAG",
            "App. C (baselines), prompts of App. E", List.of(
                    OptionSpec.integer("consolidations", 1, "consolidation calls (1 = Astute RAG's t = 2)"),
                    OptionSpec.integer("max-tokens", 1024, "output limit per call")));

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
        int consolidations = o.intValue("consolidations");
        int maxTokens = o.intValue("max-tokens");
        String internal = call(ctx, "generator", 0, maxTokens,
                Prompts.ASTUTE_GENERATION.fill(Map.of("question", item.question())));
        String init = "Memorized Document 1: " + internal.strip() + "\n\n"
                + Prompts.documents(item.documents(), "Externally Retrieved Document");
        String context = init;
        for (int i = 1; i <= consolidations; i++) {
            context = call(ctx, "consolidator", i, maxTokens, Prompts.ASTUTE_CONSOLIDATION.fill(
                    Map.of("context init", init, "context", context, "question", item.question()))).strip();
        }
        String consolidated = consolidations > 0 ? "\nConsolidated Context: " + context + "\n" : "";
        String out = call(ctx, "finalizer", consolidations + 1, maxTokens, Prompts.ASTUTE_FINAL.fill(
                Map.of("context init", init, "consolidated", consolidated, "question", item.question())));
        return AggregatorOutputParser.parse(out, item.documents().stream().map(Document::titled).toList())
                .answer("finalisation", List.of());
    }

    private static String call(MethodContext ctx, String role, int step, int maxTokens, String prompt) {
        return ctx.llm().call(ctx.role(role, step), LlmRequest.user(prompt).temperature(0.0).maxTokens(maxTokens).build())
                .text();
    }
}
