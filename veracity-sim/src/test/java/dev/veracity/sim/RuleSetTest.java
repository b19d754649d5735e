package dev.veracity.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.veracity.sim.ChatCompletionsTest.contents;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RuleSetTest {

    @TempDir
    Path dir;

    @Test
    void loadsARuleFileAndServesIt() throws IOException {
        Path file = dir.resolve("rules.json");
        Files.writeString(file, """
                {
                  "comment": "test rules",
                  "rules": [
                    {"pattern": "capital of (\\\\w+)", "response": "The capital of {{1}} is {{1}}ville & co."},
                    {"pattern": "(?i)coin", "responses": ["Heads.", "Tails."], "comment": "two sides"}
                  ],
                  "default": ["No idea.", "Not sure."]
                }""");
        RuleSet rules = RuleSet.load(file);
        assertThat(rules.rules()).hasSize(2);

        try (SimServer sim = SimServer.start(SimConfig.builder().rules(rules).build())) {
            assertThat(contents(Http.chat(sim, Http.userMessage("the capital of Utopia", ""))))
                    .containsExactly("The capital of Utopia is Utopiaville & co.");
            assertThat(contents(Http.chat(sim, Http.userMessage("flip a COIN", "\"n\":12"))))
                    .containsOnly("Heads.", "Tails.").contains("Heads.", "Tails.");
            assertThat(contents(Http.chat(sim, Http.userMessage("?", "\"n\":12"))))
                    .containsOnly("No idea.", "Not sure.");
        }
    }

    @Test
    void firstMatchingRuleWins() {
        RuleSet rules = RuleSet.of(Rule.of("a", "first"), Rule.of("ab", "second"));
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(rules).build())) {
            assertThat(contents(Http.chat(sim, Http.userMessage("xab", "")))).containsExactly("first");
            assertThat(contents(Http.chat(sim, Http.userMessage("b", "")))).containsExactly(RuleSet.DEFAULT_RESPONSE);
        }
    }

    @Test
    void badRegexIsReportedWithFileAndRuleIndex() throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, """
                {"rules": [{"pattern": "ok", "response": "fine"}, {"pattern": "(unclosed", "response": "x"}]}""");
        assertThatThrownBy(() -> RuleSet.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("rules[1]")
                .hasMessageContaining("invalid regex \"(unclosed\"");
    }

    @Test
    void structuralErrorsNameTheProblem() {
        assertThatThrownBy(() -> RuleSet.parse("{\"rules\":[{\"response\":\"x\"}]}", "f.json"))
                .hasMessage("f.json: rules[0]: missing string \"pattern\"");
        assertThatThrownBy(() -> RuleSet.parse("{\"rules\":[{\"pattern\":\"x\"}]}", "f.json"))
                .hasMessageContaining("rules[0]").hasMessageContaining("exactly one of \"response\"");
        assertThatThrownBy(() -> RuleSet.parse("{\"rules\":[{\"pattern\":\"x\",\"response\":\"a\",\"responses\":[\"b\"]}]}", "f.json"))
                .hasMessageContaining("rules[0]").hasMessageContaining("exactly one of");
        assertThatThrownBy(() -> RuleSet.parse("{\"rules\":[{\"pattern\":\"x\",\"responses\":[]}]}", "f.json"))
                .hasMessageContaining("rules[0].responses: must be a non-empty list");
        assertThatThrownBy(() -> RuleSet.parse("{\"rules\":[{\"pattern\":\"x\",\"respnse\":\"a\"}]}", "f.json"))
                .hasMessageContaining("unknown key \"respnse\"");
        assertThatThrownBy(() -> RuleSet.parse("{\"rules\":[{\"pattern\":\"x\",\"response\":\"{{#open}}\"}]}", "f.json"))
                .hasMessageContaining("rules[0]").hasMessageContaining("invalid template");
        assertThatThrownBy(() -> RuleSet.parse("{\"rules\": [", "f.json"))
                .hasMessageStartingWith("f.json: not valid JSON");
        assertThatThrownBy(() -> RuleSet.parse("{}", "f.json"))
                .hasMessage("f.json: \"rules\" must be an array");
    }

    @Test
    void missingFileIsAnIoError() {
        assertThatThrownBy(() -> RuleSet.load(dir.resolve("absent.json"))).isInstanceOf(IOException.class);
    }
}
