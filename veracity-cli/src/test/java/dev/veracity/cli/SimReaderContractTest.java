package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.methods.Methods;
import dev.veracity.sim.SimServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's contract with the methods: every registered method, run on a couple of questions with passages
 * against a simulator with no rules, sends only prompts that some {@link dev.veracity.sim.reader.PromptReader}
 * recognises (none gets the default answer). A method whose plug-in brings no reader for its prompts, or a reader
 * missing from the services file, fails here, naming the method and the unrecognised prompt's first line.
 *
 * <p>Each method runs as {@code demo} runs it (its default options, the bundled RAMDocs questions with their
 * documents, the embedder for those that use one), against the test's own simulator; no method needs more.
 */
class SimReaderContractTest {

    /** Questions per method: enough for each role of a method to be called. */
    private static final int QUESTIONS = 2;

    @TempDir
    Path dir;

    @Test
    void everyRegisteredMethodsPromptsAreRecognisedByAReader() {
        List<String> methods = List.copyOf(Methods.names());
        assertThat(methods).hasSizeGreaterThanOrEqualTo(20);
        Map<String, String> unrecognised = new LinkedHashMap<>();
        try (SimServer sim = SimServer.start(SimCommand.simulator().build())) {
            for (String method : methods) {
                sim.counters().reset();
                sim.clearRecentRequests();
                CliRun.Result r = CliRun.run("demo", "--method", method, "--limit", String.valueOf(QUESTIONS),
                        "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off",
                        "--out", dir.resolve(method).toString());
                assertThat(r.code()).as(method + ": " + r.err() + r.out()).isZero();
                long prompts = sim.counters().promptsRecognised().values().stream().mapToLong(Long::longValue).sum()
                        + sim.counters().unrecognisedPrompts();
                assertThat(prompts).as(method + " asked the simulator nothing").isPositive();
                if (sim.counters().unrecognisedPrompts() > 0) {
                    String first = sim.unrecognisedPrompts().getFirst().strip().lines().findFirst().orElse("");
                    unrecognised.put(method, sim.counters().unrecognisedPrompts() + " of " + prompts
                            + " prompts unrecognised, the first begins: " + first);
                }
            }
        }
        assertThat(unrecognised).as("methods with prompts no simulator reader recognises").isEmpty();
    }
}
