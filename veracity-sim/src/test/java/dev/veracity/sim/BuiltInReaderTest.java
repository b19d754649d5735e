package dev.veracity.sim;

import org.junit.jupiter.api.Test;

import static dev.veracity.sim.Http.chat;
import static dev.veracity.sim.Http.ok;
import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

/** The built-in reader answers what no rule matches, unless switched off or a default is set; rules still win. */
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
}
