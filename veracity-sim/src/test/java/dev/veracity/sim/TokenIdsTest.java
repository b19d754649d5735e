package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static dev.veracity.sim.Http.chat;
import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * vLLM's {@code return_token_ids} in vLLM's shape (chat_completion/protocol.py): {@code prompt_token_ids} at the top
 * of the response, {@code token_ids} in each choice, one id per logprobs token, the same ids for the same text.
 */
class TokenIdsTest {

    static SimServer sim;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder().rules(RuleSet.of(Rule.of("capital", "Paris, of course.")))
                .build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void idsSitWhereVllmPutsThemAndLineUpWithLogprobsAndUsage() {
        JsonNode r = chat(sim, userMessage("What is the capital of France?",
                "\"n\":2,\"logprobs\":true,\"return_token_ids\":true"));
        List<String> top = new ArrayList<>();
        r.fieldNames().forEachRemaining(top::add);
        assertThat(top).containsExactly("id", "object", "created", "model", "choices", "usage", "system_fingerprint",
                "prompt_token_ids");
        JsonNode prompt = r.get("prompt_token_ids");
        assertThat(prompt).hasSize(r.get("usage").get("prompt_tokens").asInt()).hasSize(7);
        assertThat(ints(prompt)).isEqualTo(Tokenizer.ids("What is the capital of France?"));
        assertThat(prompt.get(0).asInt()).isEqualTo(Tokenizer.id("What")).isBetween(0, Tokenizer.VOCABULARY - 1);
        int completion = 0;
        for (JsonNode c : r.get("choices")) {
            List<String> fields = new ArrayList<>();
            c.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactly("index", "message", "logprobs", "finish_reason", "token_ids");
            JsonNode content = c.get("logprobs").get("content");
            assertThat(c.get("token_ids")).hasSize(content.size()).hasSize(5); // "Paris" "," " of" " course" "."
            for (int i = 0; i < content.size(); i++) {
                assertThat(c.get("token_ids").get(i).asInt()).isEqualTo(Tokenizer.id(content.get(i).get("token").asText()));
            }
            completion += content.size();
        }
        assertThat(r.get("usage").get("completion_tokens").asInt()).isEqualTo(completion);
        JsonNode again = chat(sim, userMessage("What is the capital of France?", "\"return_token_ids\":true"));
        assertThat(again.get("prompt_token_ids")).isEqualTo(prompt);
        assertThat(again.get("choices").get(0).get("token_ids")).isEqualTo(r.get("choices").get(0).get("token_ids"));
        assertThat(again.get("choices").get(0).get("logprobs").isNull()).isTrue(); // ids do not bring logprobs
    }

    @Test
    void withoutTheFlagNoIdsAndStreamingWithItIsRefused() {
        JsonNode r = chat(sim, userMessage("capital?", "\"return_token_ids\":false"));
        assertThat(r.has("prompt_token_ids")).isFalse();
        assertThat(r.get("choices").get(0).has("token_ids")).isFalse();
        HttpResponse<String> streamed = Http.post(sim, "/chat/completions",
                userMessage("capital?", "\"stream\":true,\"return_token_ids\":true"));
        assertThat(streamed.statusCode()).isEqualTo(400);
        assertThat(streamed.body()).contains("return_token_ids is simulated on non-streamed chat completions only");
        HttpResponse<String> wrongType = Http.post(sim, "/chat/completions", userMessage("capital?", "\"return_token_ids\":1"));
        assertThat(wrongType.statusCode()).isEqualTo(400);
    }

    private static List<Integer> ints(JsonNode a) {
        List<Integer> out = new ArrayList<>();
        for (Iterator<JsonNode> it = a.elements(); it.hasNext(); ) {
            out.add(it.next().asInt());
        }
        return out;
    }
}
