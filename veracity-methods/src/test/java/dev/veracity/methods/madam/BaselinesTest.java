package dev.veracity.methods.madam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.trace.CallContext;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.madam.baseline.AstuteRag;
import dev.veracity.methods.madam.baseline.SelfReflection;
import dev.veracity.methods.madam.baseline.SpeculativeRag;
import dev.veracity.retrieval.Embedder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BaselinesTest {

    private static final String FINAL = "All Correct Answers: [\"1963\", \"1956\"]. Explanation: e.";

    private static MethodContext ctx(ScriptedBackend b, Map<String, String> options, Embedder embedder) {
        return new MethodContext(LlmClient.builder(b).build(), CallContext.of("run", "q1", "m"), "ramdocs", true,
                options, null, embedder);
    }

    /** Documents with a year get one direction, others another: two clear clusters. */
    private static final Embedder EMBEDDER = new Embedder() {
        @Override
        public List<float[]> embed(List<String> texts) {
            return texts.stream().map(t -> t.contains("1998") ? new float[] {0f, 1f} : new float[] {1f, 0f}).toList();
        }

        @Override
        public int dimension() {
            return 2;
        }
    };

    @Test
    void selfReflectionIsInitialThenTwoReviewRefinePairs() {
        ScriptedBackend b = ScriptedBackend.perSample((r, i) -> r.promptText().contains("improve your answer") ? FINAL
                : r.promptText().endsWith("find problems with your answer.") ? "The answer misses 1956." : "All Correct Answers: [\"1963\"].");
        MethodAnswer a = new SelfReflection().answer(MadamRagTest.MJ, ctx(b, Map.of(), null));
        List<String> prompts = b.requests().stream().map(LlmRequest::promptText).toList();
        assertThat(prompts).hasSize(5);
        assertThat(prompts.getFirst()).contains("Februray 17, 1963").endsWith("Document 3: Jordan was born in 1998."
                + " All Correct Answers: [\"1998\"]. Answer: 1998.");
        assertThat(prompts.get(2)).contains("The answer misses 1956.").endsWith("Explanation: {}.'");
        assertThat(prompts.get(3)).contains(FINAL); // round 2 reviews the refined answer
        assertThat(a.answers()).containsExactly("1963", "1956");
    }

    @Test
    void astuteRagGeneratesConsolidatesAndFinalises() {
        ScriptedBackend b = ScriptedBackend.perSample((r, i) -> r.promptText().startsWith("Generate a document")
                ? "Michael Jordan was born in 1963." : r.promptText().endsWith("New Context:") ? "Consolidated: 1963; 1956." : FINAL);
        MethodAnswer a = new AstuteRag().answer(MadamRagTest.MJ, ctx(b, Map.of(), null));
        List<String> prompts = b.requests().stream().map(LlmRequest::promptText).toList();
        assertThat(prompts).hasSize(3);
        assertThat(prompts.get(1)).contains("Initial Context: Memorized Document 1: Michael Jordan was born in 1963.")
                .contains("Externally Retrieved Document 2: Michael Irwin Jordan");
        assertThat(prompts.get(2)).contains("Consolidated Context: Consolidated: 1963; 1956.").endsWith("Answer:");
        assertThat(a.answers()).containsExactly("1963", "1956");
        ScriptedBackend once = ScriptedBackend.perSample((r, i) -> FINAL);
        new AstuteRag().answer(MadamRagTest.MJ, ctx(once, Map.of("consolidations", "0"), null));
        assertThat(once.requests()).hasSize(2);
    }

    @Test
    void speculativeRagDraftsFromOneDocumentPerClusterThenAggregates() {
        ScriptedBackend b = ScriptedBackend.perSample((r, i) -> r.promptText().startsWith("Answer the question")
                ? "Response: 1963. Rationale: r." : FINAL);
        MethodAnswer a = new SpeculativeRag().answer(MadamRagTest.MJ, ctx(b, Map.of(), EMBEDDER));
        List<String> drafts = b.requests().stream().map(LlmRequest::promptText).filter(p -> p.startsWith("Answer the question")).toList();
        // clusters {d1, d2} and {d3}: subsets {d1, d3} and {d2, d3}, each holding the 1998 document once
        assertThat(drafts).hasSize(2).allMatch(p -> p.contains("Document 2: Jordan was born in 1998."));
        String agg = b.requests().getLast().promptText();
        assertThat(agg).startsWith("You are an aggregator reading answers from multiple responses.")
                .contains("Response 1: Response: 1963. Rationale: r.").contains("Response 2: Response: 1963.");
        assertThat(a.answers()).containsExactly("1963", "1956");
        // deterministic for a seed
        ScriptedBackend again = ScriptedBackend.perSample((r, i) -> FINAL);
        new SpeculativeRag().answer(MadamRagTest.MJ, ctx(again, Map.of(), EMBEDDER));
        assertThat(again.requests().stream().map(LlmRequest::promptText).filter(p -> p.startsWith("Answer the question")).toList())
                .containsExactlyInAnyOrderElementsOf(drafts);
    }
}
