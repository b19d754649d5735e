package dev.veracity.methods;

import static dev.veracity.testing.PaperPrompts.assertSame;
import static dev.veracity.testing.PaperPrompts.normalise;
import static dev.veracity.testing.PaperPrompts.paper;
import static dev.veracity.testing.PaperPrompts.passage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.Proposer;
import dev.veracity.testing.PaperPrompts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every prompt resource under {@code src/main/resources/dev/veracity/methods} is the paper's text, character for
 * character, but for the differences its {@code #!} header declares ({@link PaperPrompts} says how).
 */
class PaperPromptsTest {

    /** Every prompt resource and the paper it comes from ("none": our extension, printed by no paper). */
    private static final Map<String, String> KNOWN = new TreeMap<>(Map.ofEntries(
            Map.entry("baseline/concatenated.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("baseline/cot-fever.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/cot-hotpotqa.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/cot-musique.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/no-rag-multi.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("baseline/standard-fever.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/standard-fever-plain.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/standard-rag-fever.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/standard-rag-single.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/standard-single.txt", "003_db09377d9b7d779f"),
            Map.entry("baseline/standard-single-plain.txt", "003_db09377d9b7d779f"),
            Map.entry("court/debater.txt", "003_db09377d9b7d779f"),
            Map.entry("court/judge-fever.txt", "003_db09377d9b7d779f"),
            Map.entry("court/judge-hotpotqa.txt", "003_db09377d9b7d779f"),
            Map.entry("court/judge-musique.txt", "003_db09377d9b7d779f"),
            Map.entry("court/llm-judge.txt", "003_db09377d9b7d779f"),
            Map.entry("court/react-fever-enhanced.txt", "003_db09377d9b7d779f"),
            Map.entry("court/react-fever.txt", "003_db09377d9b7d779f"),
            Map.entry("court/react-hotpotqa.txt", "003_db09377d9b7d779f"),
            Map.entry("court/react-musique.txt", "003_db09377d9b7d779f"),
            Map.entry("court/mad-debater.txt", "none"),
            Map.entry("court/mad-judge.txt", "none"),
            Map.entry("court/mad-moderator.txt", "none"),
            Map.entry("court/refine-feedback.txt", "none"),
            Map.entry("court/refine.txt", "none"),
            Map.entry("c3po/answer-no-documents.txt", "none"),
            Map.entry("c3po/answer.txt", "none"),
            Map.entry("c3po/decision-forced.txt", "none"),
            Map.entry("c3po/decision.txt", "002_d44d7225b1bdaee8"),
            Map.entry("c3po/examples/answer.txt", "none"),
            Map.entry("c3po/examples/decision.txt", "none"),
            Map.entry("c3po/examples/filter.txt", "none"),
            Map.entry("c3po/examples/roadmap.txt", "none"),
            Map.entry("c3po/examples/router.txt", "none"),
            Map.entry("c3po/filter-retrieval.txt", "002_d44d7225b1bdaee8"),
            Map.entry("c3po/filter.txt", "002_d44d7225b1bdaee8"),
            Map.entry("c3po/roadmap.txt", "002_d44d7225b1bdaee8"),
            Map.entry("c3po/router.txt", "002_d44d7225b1bdaee8"),
            Map.entry("madam/agent-debate.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/agent.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/aggregator.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/astute-consolidation.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/astute-finalization.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/astute-generation.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/self-reflection-initial.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/self-reflection-refine.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/self-reflection-review.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/speculative-aggregator.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("madam/baseline/speculative-drafter.txt", "004_70ac80c5c6f35dcd"),
            Map.entry("march/checker-typed.txt", "000_f0af45795e5662a9"),
            Map.entry("march/checker.txt", "000_f0af45795e5662a9"),
            Map.entry("march/proposer-constraint.txt", "none"),
            Map.entry("march/proposer-typed.txt", "000_f0af45795e5662a9"),
            Map.entry("march/proposer.txt", "000_f0af45795e5662a9"),
            Map.entry("march/solver.txt", "000_f0af45795e5662a9"),
            Map.entry("truthrl/no-retrieval.txt", "001_7b65862a126bc16f"),
            Map.entry("truthrl/retrieval.txt", "001_7b65862a126bc16f")));

    private static final Path RESOURCES = Path.of("src/main/resources/dev/veracity/methods");

    @TestFactory
    Stream<DynamicTest> everyPromptIsListedAndMatchesItsPaper() throws IOException {
        return PaperPrompts.checkAll(RESOURCES, KNOWN);
    }

    /** Point 12: the default Proposer sends A.2 as printed; min-pairs=3 adds the B.4 count constraint. */
    @Test
    void theDefaultProposerPromptIsAppendixA2AsPrinted() {
        assertThat(MarchSettings.defaults().minPairs()).isZero();
        String sent = new Proposer(MarchSettings.defaults()).prompt("{response}");
        assertThat(sent).doesNotContain("Rule 3").doesNotContain("no fewer than");
        String a2 = passage(paper("000_f0af45795e5662a9"), List.of("A.2 System Prompt of the Proposer Agent"),
                "You are a data annotation expert.", "Model Response: {response 𝐲\\mathbf{y}}");
        assertSame("default Proposer prompt vs A.2", a2.replace("{response 𝐲\\mathbf{y}}", "{response}"), normalise(sent));

        String constrained = new Proposer(MarchSettings.fromOptions(Map.of("min-pairs", "3"))).prompt("x");
        assertThat(constrained).contains("Rule 3. Number of Questions: Generate no fewer than 3 and no more than 10 "
                + "question-answer pairs.").endsWith("Model Response: x");
    }
}
