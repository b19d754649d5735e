package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.veracity.sim.ChatCompletionsTest.contents;
import static org.assertj.core.api.Assertions.assertThat;

class CompletionsTest {

    static SimServer sim;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder()
                .rules(Rule.of("^Q: (.*)\\nA:", " The answer to {{1}} is 42."),
                        Rule.of("flip", List.of(" heads", " tails")))
                .build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static JsonNode complete(String body) {
        return Http.ok(sim, "/completions", body);
    }

    @Test
    void textCompletionShape() {
        JsonNode r = complete("{\"model\":\"base\",\"prompt\":\"Q: life\\nA:\",\"max_tokens\":16}");
        assertThat(r.get("id").asText()).startsWith("cmpl-");
        assertThat(r.get("object").asText()).isEqualTo("text_completion");
        assertThat(r.get("model").asText()).isEqualTo("base");
        assertThat(r.get("created").asLong()).isPositive();
        JsonNode c = r.get("choices").get(0);
        assertThat(c.get("index").asInt()).isZero();
        assertThat(c.get("text").asText()).isEqualTo(" The answer to life is 42.");
        assertThat(c.get("logprobs").isNull()).isTrue();
        assertThat(c.get("finish_reason").asText()).isEqualTo("stop");
        // " The answer to life is 42." = The answer to life is 42 . = 7 tokens; "Q: life\nA:" = Q : life A : = 5
        assertThat(r.get("usage").get("completion_tokens").asInt()).isEqualTo(7);
        assertThat(r.get("usage").get("prompt_tokens").asInt()).isEqualTo(5);
        assertThat(r.get("usage").get("total_tokens").asInt()).isEqualTo(12);
    }

    @Test
    void maxTokensAndStop() {
        JsonNode cut = complete("{\"prompt\":\"Q: x\\nA:\",\"max_tokens\":2}");
        assertThat(contents(cut)).containsExactly(" The answer");
        assertThat(cut.get("choices").get(0).get("finish_reason").asText()).isEqualTo("length");
        JsonNode stopped = complete("{\"prompt\":\"Q: x\\nA:\",\"stop\":[\" is\"]}");
        assertThat(contents(stopped)).containsExactly(" The answer to x");
    }

    @Test
    void logprobsWithAlternativesPerToken() {
        String prompt = "Q: y\\nA:";
        JsonNode r = complete("{\"prompt\":\"" + prompt + "\",\"logprobs\":2,\"max_tokens\":3}");
        JsonNode lp = r.get("choices").get(0).get("logprobs");
        List<String> tokens = new ArrayList<>();
        lp.get("tokens").forEach(t -> tokens.add(t.asText()));
        assertThat(tokens).containsExactly(" The", " answer", " to");
        assertThat(lp.get("token_logprobs")).hasSize(3);
        assertThat(lp.get("top_logprobs")).hasSize(3);
        for (int i = 0; i < 3; i++) {
            JsonNode top = lp.get("top_logprobs").get(i);
            assertThat(top.size()).isEqualTo(2);
            assertThat(top.get(tokens.get(i)).asDouble()).isEqualTo(lp.get("token_logprobs").get(i).asDouble());
            assertThat(lp.get("token_logprobs").get(i).asDouble()).isNegative();
        }
        // Offsets count from the end of the prompt ("Q: y\nA:" is 7 characters).
        assertThat(lp.get("text_offset").toString()).isEqualTo("[7,11,18]");
    }

    @Test
    void batchedPromptsGetNChoicesEach() {
        JsonNode r = complete("{\"prompt\":[\"Q: a\\nA:\",\"Q: b\\nA:\"],\"n\":2,\"max_tokens\":5}");
        JsonNode choices = r.get("choices");
        assertThat(choices).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(choices.get(i).get("index").asInt()).isEqualTo(i);
        }
        assertThat(contents(r)).containsExactly(" The answer to a is", " The answer to a is",
                " The answer to b is", " The answer to b is");
        assertThat(r.get("usage").get("completion_tokens").asInt()).isEqualTo(20);
    }

    @Test
    void alternativesVaryAcrossSamples() {
        JsonNode r = complete("{\"prompt\":\"flip a coin\",\"n\":10,\"seed\":1}");
        assertThat(contents(r)).contains(" heads", " tails");
    }
}
