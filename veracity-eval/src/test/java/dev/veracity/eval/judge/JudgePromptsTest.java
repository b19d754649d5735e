package dev.veracity.eval.judge;

import dev.veracity.testing.PaperPrompts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every judge prompt under {@code src/main/resources/dev/veracity/eval/judge} is its paper's text, character for
 * character, but for the differences its {@code #!} header declares; ours say {@code paper: none}
 * ({@link PaperPrompts}, the same check as the methods' prompts).
 */
class JudgePromptsTest {

    private static final Map<String, String> KNOWN = Map.of(
            "c3po_evaluation.txt", "002_d44d7225b1bdaee8",
            "crag_outcome.txt", "001_7b65862a126bc16f",
            "reasoning_quality.txt", "001_7b65862a126bc16f",
            "truthrl_outcome_system.txt", "none",
            "truthrl_reasoning_system.txt", "none",
            "equivalence.txt", "none");

    @TestFactory
    Stream<DynamicTest> everyJudgePromptIsListedAndMatchesItsPaper() throws IOException {
        return PaperPrompts.checkAll(Path.of("src/main/resources/dev/veracity/eval/judge"), KNOWN);
    }
}
