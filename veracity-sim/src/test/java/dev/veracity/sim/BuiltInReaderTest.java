package dev.veracity.sim;

import dev.veracity.sim.reader.ExtractiveReader;
import dev.veracity.sim.reader.PromptReader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.veracity.sim.Http.chat;
import static dev.veracity.sim.Http.ok;
import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The built-in reader answers what no rule matches, unless switched off or a default is set; rules still win. It is
 * made of the {@link PromptReader}s found with ServiceLoader, tried in their order; the server counts which one
 * answered and keeps the prompts none recognised.
 */
class BuiltInReaderTest {

    static final String AGENT = "You are an agent reading a document to answer a question.\n\n"
            + "Question: In which year was the Eiffel Tower opened?\n\n"
            + "Document: The Eiffel Tower was opened in 1889 for the World's Fair.\n\n"
            + "Answer the question based on the document and other agents' responses. Provide your answer and a"
            + " step-by-step reasoning explanation.\n\nPlease follow the format: 'Answer: {}. Explanation: {}.'";

    static String content(SimConfig config, String prompt) {
        try (SimServer sim = SimServer.start(config)) {
            return chat(sim, userMessage(prompt, "")).at("/choices/0/message/content").asText();
        }
    }

    @Test
    void theReaderIsTheDefault() {
        assertThat(content(SimConfig.defaults(), AGENT)).startsWith("Answer: 1889. Explanation:");
        assertThat(content(SimConfig.defaults(), "hi")).isEqualTo(RuleSet.DEFAULT_RESPONSE);
    }

    @Test
    void completionsToo() {
        try (SimServer sim = SimServer.start()) {
            String body = "{\"prompt\":" + Http.JSON.getNodeFactory().textNode(AGENT) + "}";
            assertThat(ok(sim, "/completions", body).at("/choices/0/text").asText()).startsWith("Answer: 1889.");
        }
    }

    @Test
    void switchedOffOrOverridden() {
        assertThat(content(SimConfig.builder().reader(false).build(), AGENT)).isEqualTo(RuleSet.DEFAULT_RESPONSE);
        assertThat(content(SimConfig.builder().rules(RuleSet.empty().withDefault("nope")).build(), AGENT)).isEqualTo("nope");
        assertThat(content(SimConfig.builder().rules(Rule.of("Eiffel", "Answer: 1900. Explanation: rule.")).build(), AGENT))
                .isEqualTo("Answer: 1900. Explanation: rule.");
    }

    /** A reader of one phrase, answering with a fixed text. */
    record Phrase(String name, int order, String phrase, String answer) implements PromptReader {
        @Override
        public Optional<String> read(String prompt) {
            return prompt.contains(phrase) ? Optional.of(answer) : Optional.empty();
        }
    }

    @Test
    void theProjectsReadersComeThroughTheServiceInTheirOrderTheJudgesFirst() {
        assertThat(ExtractiveReader.classPath().readers()).extracting(PromptReader::name).containsExactly(
                "judges", "reasoning-court", "march", "madam-rag", "truthrl", "c3po", "baselines");
        assertThat(SimConfig.defaults().readers()).isEqualTo(ExtractiveReader.classPath().readers());
    }

    @Test
    void aGivenReaderJoinsInItsOrderAndOneThatThrowsIsPassedOver() {
        List<PromptReader> readers = new ArrayList<>(ExtractiveReader.classPath().readers());
        readers.add(new Phrase("mine", PromptReader.PLUGIN, "Plug-in asks:", "Answer: 42"));
        readers.add(new Phrase("early", 5, "You are an agent reading a document", "Answer: early"));
        SimConfig config = SimConfig.builder().readers(readers).build();
        assertThat(config.readers()).extracting(PromptReader::name).startsWith("early", "judges").endsWith("mine");
        assertThat(content(config, "Plug-in asks: the answer")).isEqualTo("Answer: 42");
        assertThat(content(config, AGENT)).isEqualTo("Answer: early"); // before the MADAM reader, by its order

        PromptReader slips = new PromptReader() {
            @Override
            public String name() {
                return "slips";
            }

            @Override
            public int order() {
                return 1;
            }

            @Override
            public Optional<String> read(String prompt) {
                throw new IllegalStateException("a heuristic slip");
            }
        };
        List<PromptReader> withSlip = new ArrayList<>(ExtractiveReader.classPath().readers());
        withSlip.add(slips);
        assertThat(content(SimConfig.builder().readers(withSlip).build(), AGENT)).startsWith("Answer: 1889.");
        assertThat(content(SimConfig.builder().readers(List.of(slips)).build(), AGENT)).isEqualTo(RuleSet.DEFAULT_RESPONSE);
    }

    @Test
    void twoReadersOfOneNameAreRefusedNamingBoth() {
        assertThatThrownBy(() -> SimConfig.builder().readers(List.of(new Phrase("march", 1, "x", "y"),
                ExtractiveReader.classPath().readers().get(2))).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two simulator readers named 'march'")
                .hasMessageContaining(Phrase.class.getName()).hasMessageContaining("dev.veracity.sim.reader.MarchReader");
    }

    @Test
    void theServerCountsWhichReaderAnsweredAndKeepsThePromptsNoneRecognised() {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("^ruled", "by a rule")).build())) {
            chat(sim, userMessage(AGENT, ""));
            chat(sim, userMessage(AGENT, ""));
            chat(sim, userMessage("Please respond with the exact answer only. Question: Who wrote Hamlet? Answer:", ""));
            chat(sim, userMessage("ruled out", ""));
            chat(sim, userMessage("An unknown method's prompt\nwith a second line", ""));
            assertThat(sim.counters().promptsRecognised()).isEqualTo(Map.of("madam-rag", 2L, "baselines", 1L));
            assertThat(sim.counters().unrecognisedPrompts()).isEqualTo(1);
            assertThat(sim.unrecognisedPrompts()).containsExactly("An unknown method's prompt\nwith a second line");
            sim.counters().reset();
            sim.clearRecentRequests();
            assertThat(sim.counters().promptsRecognised()).isEmpty();
            assertThat(sim.counters().unrecognisedPrompts()).isZero();
            assertThat(sim.unrecognisedPrompts()).isEmpty();
        }
        try (SimServer off = SimServer.start(SimConfig.builder().reader(false).build())) {
            chat(off, userMessage("An unknown method's prompt", ""));
            assertThat(off.counters().unrecognisedPrompts()).isZero(); // no reader was asked
        }
    }
}
