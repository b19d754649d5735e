package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.veracity.sim.Http.chat;
import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

class ChatCompletionsTest {

    static SimServer sim;
    /** The date responses carry comes from it: a test checks {@code created} against it, not against the wall clock. */
    static final ManualClock CLOCK = new ManualClock();

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder()
                .seed(42)
                .clock(CLOCK)
                .rules(RuleSet.of(
                        Rule.of("say hello", "Hello, world!"),
                        Rule.of("(?i)pick a color", List.of("red", "green", "blue", "yellow", "purple")),
                        Rule.of("capital of (?<country>\\w+)\\?( please)?",
                                "{{country}}/{{1}}/[{{2}}] sample={{sample}} model={{model}}"),
                        Rule.of("(?s)^You are terse\\.\\n\\nWhat is (.+)\\?$", "Terse: {{1}}."),
                        Rule.of("count words", "one two three four five"),
                        Rule.of("script me", m -> "messages=" + m.messages().size() + " roles=" + m.messages().getFirst().role()
                                + " last=" + m.lastMessage() + " top_k=" + m.request().path("top_k").asInt()
                                + " seed=" + m.seed()))
                        .withDefault("Fallback for: {{prompt}}"))
                .build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void nChoicesWithUsageInOpenAiShape() {
        long now = CLOCK.epochSecond();
        JsonNode r = chat(sim, userMessage("please say hello", "\"n\":2"));

        assertThat(r.get("id").asText()).startsWith("chatcmpl-");
        assertThat(r.get("object").asText()).isEqualTo("chat.completion");
        assertThat(r.get("created").asLong()).isEqualTo(now);
        CLOCK.advance(java.time.Duration.ofSeconds(90));
        assertThat(chat(sim, userMessage("please say hello", "\"n\":1")).get("created").asLong()).as("the clock's date")
                .isEqualTo(now + 90);
        assertThat(r.get("model").asText()).isEqualTo("m");
        assertThat(r.get("system_fingerprint").asText()).isEqualTo("sim");
        assertThat(r.get("choices")).hasSize(2);
        for (int i = 0; i < 2; i++) {
            JsonNode c = r.get("choices").get(i);
            assertThat(c.get("index").asInt()).isEqualTo(i);
            assertThat(c.get("message").get("role").asText()).isEqualTo("assistant");
            assertThat(c.get("message").get("content").asText()).isEqualTo("Hello, world!");
            assertThat(c.get("message").has("refusal")).isTrue();
            assertThat(c.get("message").get("refusal").isNull()).isTrue();
            assertThat(c.get("logprobs").isNull()).isTrue();
            assertThat(c.get("finish_reason").asText()).isEqualTo("stop");
        }
        // "please say hello" = 3 tokens; "Hello, world!" = Hello , world ! = 4 tokens, twice.
        JsonNode usage = r.get("usage");
        assertThat(usage.get("prompt_tokens").asInt()).isEqualTo(3);
        assertThat(usage.get("completion_tokens").asInt()).isEqualTo(8);
        assertThat(usage.get("total_tokens").asInt()).isEqualTo(11);
    }

    @Test
    void modelDefaultsToFirstServedModel() {
        JsonNode r = chat(sim, "{\"messages\":[{\"role\":\"user\",\"content\":\"say hello\"}]}");
        assertThat(r.get("model").asText()).isEqualTo(SimConfig.DEFAULT_MODEL);
    }

    @Test
    void sameSeedSameOutputsAndSamplesDiffer() {
        List<String> first = contents(chat(sim, userMessage("Pick a color", "\"n\":8,\"seed\":7")));
        List<String> again = contents(chat(sim, userMessage("Pick a color", "\"n\":8,\"seed\":7")));
        List<String> otherSeed = contents(chat(sim, userMessage("Pick a color", "\"n\":8,\"seed\":8")));

        assertThat(first).hasSize(8).isEqualTo(again);
        assertThat(new HashSet<>(first)).hasSizeGreaterThan(1)
                .isSubsetOf("red", "green", "blue", "yellow", "purple");
        assertThat(otherSeed).isNotEqualTo(first);

        // Without a request seed the server seed decides, just as reproducibly.
        assertThat(contents(chat(sim, userMessage("Pick a color", "\"n\":8"))))
                .isEqualTo(contents(chat(sim, userMessage("Pick a color", "\"n\":8"))));
    }

    @Test
    void temperatureZeroMakesSamplesIdentical() {
        List<String> greedy = contents(chat(sim, userMessage("Pick a color", "\"n\":8,\"seed\":7,\"temperature\":0")));
        List<String> sampled = contents(chat(sim, userMessage("Pick a color", "\"n\":8,\"seed\":7,\"temperature\":0.7")));
        assertThat(new HashSet<>(greedy)).hasSize(1);
        assertThat(greedy.getFirst()).isEqualTo(sampled.getFirst()); // greedy answers like sample 0
    }

    @Test
    void templatesSeeCaptureGroupsSampleAndModel() {
        JsonNode r = chat(sim, userMessage("What is the capital of France?", "\"n\":2"));
        assertThat(contents(r)).containsExactly(
                "France/France/[] sample=0 model=m",
                "France/France/[] sample=1 model=m");
        JsonNode withOptional = chat(sim, userMessage("capital of Peru? please", ""));
        assertThat(contents(withOptional)).containsExactly("Peru/Peru/[ please] sample=0 model=m");
    }

    @Test
    void chatPromptIsContentsJoinedWithBlankLines() {
        JsonNode r = chat(sim, """
                {"model":"m","messages":[
                  {"role":"system","content":"You are terse."},
                  {"role":"assistant","content":null,"tool_calls":[]},
                  {"role":"user","content":[{"type":"text","text":"What is "},{"type":"text","text":"love?"}]}]}""");
        assertThat(contents(r)).containsExactly("Terse: love.");
    }

    @Test
    void fallbackAnswersWhenNoRuleMatches() {
        assertThat(contents(chat(sim, userMessage("unmatched <b>&", "")))).containsExactly("Fallback for: unmatched <b>&");
        try (SimServer plain = SimServer.start()) {
            assertThat(contents(chat(plain, userMessage("anything", "")))).containsExactly(RuleSet.DEFAULT_RESPONSE);
        }
    }

    @Test
    void functionRulesSeeMessagesRequestAndSeed() {
        JsonNode r = chat(sim, """
                {"model":"m","seed":5,"top_k":40,"messages":[
                  {"role":"system","content":"sys"},{"role":"user","content":"script me"}]}""");
        assertThat(contents(r)).containsExactly("messages=2 roles=system last=script me top_k=40 seed=5");
    }

    @Test
    void maxTokensCutsAndReportsLength() {
        JsonNode r = chat(sim, userMessage("count words", "\"max_tokens\":3"));
        JsonNode c = r.get("choices").get(0);
        assertThat(c.get("message").get("content").asText()).isEqualTo("one two three");
        assertThat(c.get("finish_reason").asText()).isEqualTo("length");
        assertThat(r.get("usage").get("completion_tokens").asInt()).isEqualTo(3);

        JsonNode newer = chat(sim, userMessage("count words", "\"max_completion_tokens\":1"));
        assertThat(contents(newer)).containsExactly("one");

        JsonNode exact = chat(sim, userMessage("count words", "\"max_tokens\":5"));
        assertThat(exact.get("choices").get(0).get("finish_reason").asText()).isEqualTo("stop");
        assertThat(contents(exact)).containsExactly("one two three four five");
    }

    @Test
    void stopSequencesCutAtTheEarliestOccurrence() {
        JsonNode r = chat(sim, userMessage("count words", "\"stop\":[\" four\",\" two\"]"));
        assertThat(contents(r)).containsExactly("one");
        assertThat(r.get("choices").get(0).get("finish_reason").asText()).isEqualTo("stop");
        assertThat(r.get("usage").get("completion_tokens").asInt()).isEqualTo(1);

        assertThat(contents(chat(sim, userMessage("count words", "\"stop\":\"three\"")))).containsExactly("one two ");
        // A stop reached after max_tokens does not apply: the limit comes first.
        JsonNode both = chat(sim, userMessage("count words", "\"stop\":\"five\",\"max_tokens\":2"));
        assertThat(contents(both)).containsExactly("one two");
        assertThat(both.get("choices").get(0).get("finish_reason").asText()).isEqualTo("length");
    }

    @Test
    void logprobsHaveOpenAiShapeAndAreDeterministic() {
        String body = userMessage("say hello", "\"logprobs\":true,\"top_logprobs\":3");
        JsonNode r = chat(sim, body);
        JsonNode choice = r.get("choices").get(0);
        JsonNode lp = choice.get("logprobs");
        assertThat(lp.get("refusal").isNull()).isTrue();
        JsonNode content = lp.get("content");
        List<String> tokens = new ArrayList<>();
        for (JsonNode t : content) {
            String token = t.get("token").asText();
            tokens.add(token);
            double logprob = t.get("logprob").asDouble();
            assertThat(logprob).isLessThanOrEqualTo(0).isGreaterThan(-1);
            assertThat(bytes(t.get("bytes"))).isEqualTo(token.getBytes(StandardCharsets.UTF_8));
            JsonNode top = t.get("top_logprobs");
            assertThat(top).hasSize(3);
            assertThat(top.get(0).get("token").asText()).isEqualTo(token);
            assertThat(top.get(0).get("logprob").asDouble()).isEqualTo(logprob);
            Set<String> distinct = new HashSet<>();
            double previous = 0;
            double probabilityMass = 0;
            for (JsonNode alt : top) {
                distinct.add(alt.get("token").asText());
                assertThat(alt.get("logprob").asDouble()).isLessThan(previous);
                previous = alt.get("logprob").asDouble();
                probabilityMass += Math.exp(previous);
                assertThat(bytes(alt.get("bytes"))).isEqualTo(alt.get("token").asText().getBytes(StandardCharsets.UTF_8));
            }
            assertThat(distinct).hasSize(3);
            assertThat(probabilityMass).isLessThanOrEqualTo(1.0);
        }
        assertThat(tokens).containsExactly("Hello", ",", " world", "!");
        assertThat(String.join("", tokens)).isEqualTo(choice.get("message").get("content").asText());
        assertThat(chat(sim, body).get("choices").get(0).get("logprobs")).isEqualTo(lp);

        JsonNode noTop = chat(sim, userMessage("say hello", "\"logprobs\":true")).get("choices").get(0).get("logprobs");
        assertThat(noTop.get("content")).hasSize(4);
        assertThat(noTop.get("content").get(0).get("top_logprobs")).isEmpty();
    }

    @Test
    void vendorExtrasAreAcceptedAndRecordedWithoutAuthorization() {
        sim.clearRecentRequests();
        HttpResponse<String> r = Http.post(sim, "/chat/completions", userMessage("say hello",
                        "\"top_k\":40,\"min_p\":0.05,\"repetition_penalty\":1.1,\"chat_template_kwargs\":{\"x\":1}"),
                "Authorization", "Bearer secret-key", "X-Trace-Id", "abc", "Content-Type", "application/json");
        assertThat(r.statusCode()).isEqualTo(200);
        List<RecordedRequest> recent = sim.recentRequests();
        assertThat(recent).hasSize(1);
        RecordedRequest req = recent.getFirst();
        assertThat(req.method()).isEqualTo("POST");
        assertThat(req.path()).isEqualTo("/v1/chat/completions");
        assertThat(req.body().get("top_k").asInt()).isEqualTo(40);
        assertThat(req.body().get("min_p").asDouble()).isEqualTo(0.05);
        assertThat(req.body().get("chat_template_kwargs").get("x").asInt()).isEqualTo(1);
        assertThat(req.header("x-trace-id")).isEqualTo("abc");
        assertThat(req.header("authorization")).isNull();
        assertThat(req.headers()).doesNotContainKey("Authorization");
    }

    @Test
    void recentRequestsAreBounded() {
        try (SimServer small = SimServer.start(SimConfig.builder().recentRequestLimit(3).build())) {
            for (int i = 0; i < 5; i++) {
                chat(small, userMessage("q" + i, ""));
            }
            assertThat(small.recentRequests()).extracting(r -> r.body().get("messages").get(0).get("content").asText())
                    .containsExactly("q2", "q3", "q4");
            assertThat(small.recentRequests()).extracting(RecordedRequest::sequence).containsExactly(2L, 3L, 4L);
        }
    }

    static List<String> contents(JsonNode response) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : response.get("choices")) {
            out.add(c.has("message") ? c.get("message").get("content").asText() : c.get("text").asText());
        }
        return out;
    }

    static byte[] bytes(JsonNode array) {
        byte[] out = new byte[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) array.get(i).asInt();
        }
        return out;
    }
}
