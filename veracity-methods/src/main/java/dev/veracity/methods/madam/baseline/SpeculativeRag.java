package dev.veracity.methods.madam.baseline;

import dev.veracity.concurrent.Parallel;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.MethodSpec;
import dev.veracity.methods.madam.AggregatorOutputParser;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * {@code speculative-rag}: Speculative RAG (Wang et al., 2025) as MADAM-RAG ran it (Appendix B, prompts of
 * Appendix E). The documents are clustered by embedding ({@link MethodContext#requireEmbedder()}) with k-means
 * ({@code clusters}, default 2, seed {@code seed}, default 0); each of {@code drafts} subsets (default 5) takes one
 * random document per cluster (Speculative RAG's multi-perspective sampling; repeated subsets are dropped); a
 * drafter answers from each subset (concurrently), and an aggregator reads all drafts. Differences from the
 * original: the drafter is the same model, not a distilled specialist, and the generalist aggregates drafts with
 * Appendix E's prompt instead of scoring them by its probabilities (MADAM-RAG's adaptation).
 */
public final class SpeculativeRag implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("speculative-rag",
            "Drafts from document subsets (k-means over embeddings), one aggregator.", "MADAM-RAG",
            "App. B (baselines), prompts of App. E", List.of(
                    OptionSpec.integer("clusters", 2, "k-means clusters"),
                    OptionSpec.integer("drafts", 5, "document subsets, one draft each"),
                    OptionSpec.integer("seed", 0, "k-means and sampling seed"),
                    OptionSpec.integer("max-tokens", 512, "output limit per call")))
            .withNeeds(Capability.DOCUMENTS, Capability.EMBEDDER);

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
        int k = o.intValue("clusters");
        int m = o.intValue("drafts");
        long seed = o.intValue("seed");
        int maxTokens = o.intValue("max-tokens");
        List<Document> docs = item.documents();
        List<List<Document>> subsets = subsets(docs, docs.isEmpty() ? new int[0]
                : KMeans.cluster(ctx.requireEmbedder().embed(docs.stream().map(Document::text).toList()), k, seed),
                m, new Random(seed * 31 + item.id().hashCode()));
        List<Integer> idx = IntStream.range(0, subsets.size()).boxed().toList();
        List<String> drafts = Parallel.map(idx, i -> ctx.llm().call(ctx.role("drafter-" + (i + 1), 1),
                LlmRequest.user(Prompts.DRAFTER.fill(Map.of("question", item.question(),
                        "documents", Prompts.documents(subsets.get(i), "Document"))))
                        .temperature(0.0).maxTokens(maxTokens).build()).text());
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < drafts.size(); i++) {
            if (i > 0) {
                all.append("\n\n");
            }
            all.append("Response ").append(i + 1).append(": ").append(drafts.get(i).strip());
        }
        String out = ctx.llm().call(ctx.role("aggregator", 2), LlmRequest.user(Prompts.SPEC_AGGREGATOR.fill(
                Map.of("query", item.question(), "all drafted responses", all.toString())))
                .temperature(0.0).maxTokens(maxTokens).build()).text();
        return AggregatorOutputParser.parse(out, item.documents().stream().map(Document::titled).toList())
                .answer("aggregator", List.of());
    }

    /** Up to {@code m} distinct subsets, one random document of each cluster per subset, in document order. */
    static List<List<Document>> subsets(List<Document> docs, int[] cluster, int m, Random random) {
        if (docs.isEmpty()) {
            return List.of(List.of());
        }
        int k = 0;
        for (int c : cluster) {
            k = Math.max(k, c + 1);
        }
        List<List<Integer>> members = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            members.add(new ArrayList<>());
        }
        for (int i = 0; i < docs.size(); i++) {
            members.get(cluster[i]).add(i);
        }
        LinkedHashSet<List<Integer>> chosen = new LinkedHashSet<>();
        for (int attempt = 0; attempt < m * 10 && chosen.size() < m; attempt++) {
            List<Integer> pick = new ArrayList<>();
            for (List<Integer> group : members) {
                if (!group.isEmpty()) {
                    pick.add(group.get(random.nextInt(group.size())));
                }
            }
            pick.sort(null);
            chosen.add(pick);
        }
        return chosen.stream().map(p -> p.stream().map(docs::get).toList()).toList();
    }
}
