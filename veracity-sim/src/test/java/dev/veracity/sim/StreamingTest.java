package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.veracity.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.veracity.sim.ChatCompletionsTest.contents;
import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code stream: true}: the server-sent events, byte for byte where it matters, against the non-streamed answers. */
class StreamingTest {

    private static final String STREAM = "\"stream\":true";
    private static final String WITH_USAGE = "\"stream\":true,\"stream_options\":{\"include_usage\":true}";

    static SimServer sim;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder()
                .seed(42)
                .clock(new ManualClock()) // no latency is configured: nothing waits; "created" is the clock's date
                .rules(Rule.of("say hello", "Hello, world!"),
                        Rule.of("count words", "one two three four five"),
                        Rule.of("(?i)tell a story", List.of("Once upon a time.", "It was a dark and stormy night.", "Hi.")),
                        Rule.of("^Q: (.*)\\nA:", " The answer to {{1}} is 42."))
                .build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static List<JsonNode> streamChat(String body) {
        return Sse.chunks(Http.post(sim, "/chat/completions", body));
    }

    /** The text a choice's events add up to: chat deltas' content or completions' text. */
    private static String text(List<JsonNode> chunks, int index) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode c : chunks) {
            for (JsonNode choice : c.get("choices")) {
                if (choice.get("index").asInt() == index) {
                    sb.append(choice.has("delta") ? choice.get("delta").path("content").asText("") : choice.get("text").asText());
                }
            }
        }
        return sb.toString();
    }

    /** The choice events of one index, in order. */
    private static List<JsonNode> events(List<JsonNode> chunks, int index) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode c : chunks) {
            for (JsonNode choice : c.get("choices")) {
                if (choice.get("index").asInt() == index) {
                    out.add(choice);
                }
            }
        }
        return out;
    }

    @Test
    void chatSendsARoleEventOneEventPerTokenAFinishEventThenDone() {
        JsonNode whole = Http.chat(sim, userMessage("please say hello", ""));
        HttpResponse<String> r = Http.post(sim, "/chat/completions", userMessage("please say hello", STREAM));
        assertThat(r.body()).startsWith("data: {\"id\":\"chatcmpl-").endsWith("}\n\ndata: [DONE]\n\n");
        assertThat(r.headers().firstValue("Cache-Control")).contains("no-cache");
        List<JsonNode> chunks = Sse.chunks(r);

        JsonNode first = chunks.getFirst();
        for (JsonNode c : chunks) {
            assertThat(c.get("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(c.get("id")).isEqualTo(first.get("id"));
            assertThat(c.get("created")).isEqualTo(first.get("created"));
            assertThat(c.get("model").asText()).isEqualTo("m");
            assertThat(c.get("system_fingerprint").asText()).isEqualTo("sim");
            assertThat(c.has("usage")).as("usage only with include_usage").isFalse();
        }
        assertThat(first.get("created").asLong()).as("the same clock, not advanced").isEqualTo(whole.get("created").asLong());
        assertThat(Sse.choice(first).toString()).isEqualTo(
                "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":null}");
        List<String> pieces = new ArrayList<>();
        for (JsonNode c : chunks.subList(1, chunks.size() - 1)) {
            JsonNode choice = Sse.choice(c);
            assertThat(choice.get("finish_reason").isNull()).isTrue();
            assertThat(choice.get("delta").size()).as("a token event carries content only").isEqualTo(1);
            pieces.add(choice.get("delta").get("content").asText());
        }
        assertThat(pieces).containsExactly("Hello", ",", " world", "!");
        assertThat(String.join("", pieces)).isEqualTo(whole.get("choices").get(0).get("message").get("content").asText());
        assertThat(Sse.choice(chunks.getLast()).toString())
                .isEqualTo("{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}");
    }

    @Test
    void includeUsagePutsNullUsageOnEveryEventThenAUsageEventWithoutChoices() {
        JsonNode whole = Http.chat(sim, userMessage("please say hello", "\"n\":2"));
        List<JsonNode> chunks = streamChat(userMessage("please say hello", "\"n\":2," + WITH_USAGE));

        JsonNode last = chunks.getLast();
        assertThat(last.get("choices")).isEmpty();
        assertThat(last.get("id")).isEqualTo(chunks.getFirst().get("id"));
        assertThat(last.get("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(last.get("usage").toString()).isEqualTo("{\"prompt_tokens\":3,\"completion_tokens\":8,\"total_tokens\":11}");
        assertThat(last.get("usage")).isEqualTo(whole.get("usage"));
        for (JsonNode c : chunks.subList(0, chunks.size() - 1)) {
            assertThat(c.get("choices")).hasSize(1);
            assertThat(c.has("usage")).isTrue();
            assertThat(c.get("usage").isNull()).isTrue();
        }
    }

    @Test
    void severalChoicesAdvanceTogetherEachUnderItsIndex() {
        String ask = "\"n\":3,\"seed\":7";
        List<String> expected = contents(Http.chat(sim, userMessage("Tell a story", ask)));
        assertThat(new java.util.HashSet<>(expected)).as("samples differ, so a mix-up would show").hasSizeGreaterThan(1);
        List<JsonNode> chunks = streamChat(userMessage("Tell a story", ask + "," + STREAM));

        for (int i = 0; i < 3; i++) {
            assertThat(Sse.choice(chunks.get(i)).get("index").asInt()).isEqualTo(i);
            assertThat(Sse.choice(chunks.get(i)).get("delta").get("role").asText()).isEqualTo("assistant");
        }
        // After the role events, one token of each choice in turn: the choices are generated as a batch.
        assertThat(Sse.choice(chunks.get(3)).get("index").asInt()).isZero();
        assertThat(Sse.choice(chunks.get(4)).get("index").asInt()).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            assertThat(text(chunks, i)).isEqualTo(expected.get(i));
            List<JsonNode> events = events(chunks, i);
            assertThat(events).hasSize(2 + Tokenizer.count(expected.get(i)));
            assertThat(events.getLast().get("finish_reason").asText()).isEqualTo("stop");
            assertThat(events.subList(0, events.size() - 1)).allSatisfy(e -> assertThat(e.get("finish_reason").isNull()).isTrue());
        }
    }

    @Test
    void finishReasonsAndUsageMatchTheNonStreamedAnswer() {
        List<JsonNode> cut = streamChat(userMessage("count words", "\"max_tokens\":3," + WITH_USAGE));
        assertThat(text(cut, 0)).isEqualTo("one two three");
        assertThat(events(cut, 0)).hasSize(5); // role, three tokens, finish
        assertThat(events(cut, 0).getLast().get("finish_reason").asText()).isEqualTo("length");
        assertThat(cut.getLast().get("usage").get("completion_tokens").asInt()).isEqualTo(3);

        for (String limits : List.of("\"max_tokens\":3", "\"max_completion_tokens\":1", "\"stop\":\"three\"",
                "\"stop\":[\" four\",\" two\"]", "\"stop\":\"five\",\"max_tokens\":2", "\"max_tokens\":5")) {
            JsonNode whole = Http.chat(sim, userMessage("count words", limits));
            List<JsonNode> chunks = streamChat(userMessage("count words", limits + "," + WITH_USAGE));
            JsonNode choice = whole.get("choices").get(0);
            assertThat(text(chunks, 0)).as(limits).isEqualTo(choice.get("message").get("content").asText());
            assertThat(events(chunks, 0).getLast().get("finish_reason")).as(limits).isEqualTo(choice.get("finish_reason"));
            assertThat(chunks.getLast().get("usage")).as(limits).isEqualTo(whole.get("usage"));
        }
    }

    @Test
    void completionsStreamTextCompletionEventsWithoutARoleEvent() {
        String body = "{\"model\":\"base\",\"prompt\":[\"Q: a\\nA:\",\"Q: b\\nA:\"],\"n\":2,\"max_tokens\":5";
        JsonNode whole = Http.ok(sim, "/completions", body + "}");
        List<JsonNode> chunks = Sse.chunks(Http.post(sim, "/completions", body + "," + WITH_USAGE + "}"));

        for (JsonNode c : chunks) {
            assertThat(c.get("object").asText()).isEqualTo("text_completion");
            assertThat(c.get("id").asText()).startsWith("cmpl-").isEqualTo(chunks.getFirst().get("id").asText());
            assertThat(c.get("model").asText()).isEqualTo("base");
        }
        assertThat(Sse.choice(chunks.getFirst()).toString())
                .isEqualTo("{\"index\":0,\"text\":\" The\",\"logprobs\":null,\"finish_reason\":null}");
        for (int i = 0; i < 4; i++) {
            assertThat(text(chunks, i)).isEqualTo(contents(whole).get(i));
            List<JsonNode> events = events(chunks, i);
            assertThat(events).hasSize(6); // five tokens, finish
            assertThat(events.getLast().toString())
                    .isEqualTo("{\"index\":" + i + ",\"text\":\"\",\"logprobs\":null,\"finish_reason\":\"length\"}");
        }
        assertThat(chunks.getLast().get("choices")).isEmpty();
        assertThat(chunks.getLast().get("usage")).isEqualTo(whole.get("usage"));
    }

    @Test
    void logprobsComeWithEachToken() {
        String chatAsk = "\"logprobs\":true,\"top_logprobs\":2";
        JsonNode whole = Http.chat(sim, userMessage("say hello", chatAsk)).get("choices").get(0).get("logprobs");
        List<JsonNode> chunks = streamChat(userMessage("say hello", chatAsk + "," + STREAM));
        ArrayNode streamed = Http.JSON.createArrayNode();
        for (JsonNode c : chunks.subList(1, chunks.size() - 1)) {
            JsonNode lp = Sse.choice(c).get("logprobs");
            assertThat(lp.get("content")).hasSize(1);
            assertThat(lp.get("refusal").isNull()).isTrue();
            streamed.addAll((ArrayNode) lp.get("content"));
        }
        assertThat(streamed).isEqualTo(whole.get("content"));
        assertThat(Sse.choice(chunks.getFirst()).get("logprobs").isNull()).isTrue();
        assertThat(Sse.choice(chunks.getLast()).get("logprobs").isNull()).isTrue();

        String completion = "{\"prompt\":\"Q: y\\nA:\",\"logprobs\":2,\"max_tokens\":3";
        JsonNode wholeLp = Http.ok(sim, "/completions", completion + "}").get("choices").get(0).get("logprobs");
        List<JsonNode> events = Sse.chunks(Http.post(sim, "/completions", completion + "," + STREAM + "}"));
        for (String field : List.of("tokens", "token_logprobs", "top_logprobs", "text_offset")) {
            ArrayNode joined = Http.JSON.createArrayNode();
            for (JsonNode c : events.subList(0, events.size() - 1)) {
                joined.addAll((ArrayNode) Sse.choice(c).get("logprobs").get(field));
            }
            assertThat(joined).as(field).isEqualTo(wholeLp.get(field));
        }
    }

    @Test
    void tokensArriveOverTimeAsTheLatencyModelPacesThem() throws Exception {
        ManualClock clock = new ManualClock();
        try (SimServer slow = SimServer.start(SimConfig.builder().rules(Rule.of("", "one two three four five"))
                .latency(LatencyModel.ofMillis(150, 60)).clock(clock).build())) {
            HttpRequest request = Http.request(slow, "/chat/completions")
                    .POST(HttpRequest.BodyPublishers.ofString(userMessage("x", STREAM))).build();
            HttpResponse<java.util.stream.Stream<String>> r = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofLines());
            // the headers are out before the first token's wait begins: wait for the server to start waiting
            Await.until("the first token's wait; " + clock, () -> !clock.sleeping().isEmpty());
            assertThat(clock.sleeping()).as("the stream opens before the first token").containsExactly(Duration.ofMillis(150));
            // Each line with the clock's time when it came: the clock moves only below, once the lines due are in.
            List<String> data = new CopyOnWriteArrayList<>();
            List<Long> at = new CopyOnWriteArrayList<>();
            Thread reader = Thread.ofVirtual().start(() -> r.body().filter(line -> !line.isEmpty()).forEach(line -> {
                at.add(clock.nanoTime() / 1_000_000);
                data.add(line);
            }));
            clock.advance(Duration.ofMillis(149));
            assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(1));
            assertThat(data).isEmpty();
            clock.advance(Duration.ofMillis(1));
            for (int lines : new int[] {2, 3, 4, 5, 6}) { // role and first token at 150 ms, then a token each 60 ms
                Await.until(lines + " lines; " + clock, () -> data.size() == lines && clock.sleeping().size() == 1);
                assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(60));
                clock.advance(Duration.ofMillis(60));
            }
            reader.join(Await.GUARD);
            assertThat(data).hasSize(8).endsWith("data: [DONE]"); // role, five tokens, finish, done
            // the finish at the non-streamed service time, 150 + 5 × 60 ms
            assertThat(at).containsExactly(150L, 150L, 210L, 270L, 330L, 390L, 450L, 450L);
        }
    }

    @Test
    void faultsBeforeTheStreamGiveTheSameHttpErrorsAndContentFaultsShowInTheEvents() throws IOException {
        String answer = "The quick brown fox jumps over the lazy dog";
        try (SimServer f = SimServer.start(SimConfig.builder().rules(Rule.of("", answer)).faults(FaultPlan.script(
                FaultKind.RATE_LIMIT, FaultKind.SERVER_ERROR, FaultKind.RESET, FaultKind.MALFORMED_JSON, FaultKind.TRUNCATED,
                FaultKind.EMPTY_CONTENT)).build())) {
            String body = userMessage("hi", STREAM);
            HttpResponse<String> limited = Http.post(f, "/chat/completions", body);
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(limited.headers().firstValue("Content-Type")).contains("application/json");
            assertThat(limited.headers().firstValue("Retry-After")).contains("1");
            assertThat(Http.json(limited).get("error").get("code").asText()).isEqualTo("rate_limit_exceeded");

            HttpResponse<String> failed = Http.post(f, "/chat/completions", body);
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(Http.json(failed).get("error").get("type").asText()).isEqualTo("server_error");

            assertThatThrownBy(() -> Http.post(f, "/chat/completions", body)).isInstanceOf(UncheckedIOException.class);

            // Malformed: the events up to the middle one, that one's JSON cut in half, and no [DONE].
            List<String> data = Sse.data(Http.post(f, "/chat/completions", body));
            assertThat(data).doesNotContain(Sse.DONE).hasSize(11 / 2 + 1); // of 11 events: role, nine tokens, finish
            for (String d : data.subList(0, data.size() - 1)) {
                Http.JSON.readTree(d);
            }
            assertThat(data.getLast()).startsWith("{\"id\":\"chatcmpl-");
            assertThatThrownBy(() -> Http.JSON.readTree(data.getLast())).isInstanceOf(IOException.class);

            List<JsonNode> truncated = Sse.chunks(Http.post(f, "/chat/completions", body));
            assertThat(text(truncated, 0)).isEqualTo("The quick brown fox");
            assertThat(events(truncated, 0).getLast().get("finish_reason").asText()).isEqualTo("length");

            List<JsonNode> empty = Sse.chunks(Http.post(f, "/chat/completions", body));
            assertThat(empty).hasSize(2); // role, finish
            assertThat(text(empty, 0)).isEmpty();

            assertThat(f.counters().totalFaultsInjected()).isEqualTo(6);
        }
    }

    @Test
    void aFullQueueIsA429BeforeTheStreamAndCountersAndRecordsAreAsForNonStreaming() throws Exception {
        ManualClock clock = new ManualClock();
        try (SimServer f = SimServer.start(SimConfig.builder().rules(Rule.of("", "one two"))
                .capacity(1).maxQueue(0).latency(LatencyModel.ofMillis(300, 0)).clock(clock).build())) {
            String body = userMessage("hi", STREAM);
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> Http.post(f, "/chat/completions", body));
            Await.until("the first stream generating; " + clock, () -> clock.sleeping().size() == 1);
            HttpResponse<String> rejected = Http.post(f, "/chat/completions", body);
            clock.advance(Duration.ofMillis(300));
            assertThat(rejected.statusCode()).isEqualTo(429);
            assertThat(rejected.headers().firstValue("Content-Type")).contains("application/json");
            assertThat(Http.json(rejected).get("error").get("code").asText()).isEqualTo("queue_full");

            assertThat(text(Sse.chunks(first.get()), 0)).isEqualTo("one two");
            SimCounters c = f.counters();
            assertThat(c.inFlight()).isZero();
            assertThat(c.generating()).isZero();
            assertThat(c.peakGenerating()).isEqualTo(1);
            assertThat(c.requests(Endpoint.CHAT_COMPLETIONS)).isEqualTo(2);
            assertThat(c.queueRejections()).isEqualTo(1);
            assertThat(c.faultsInjected(FaultKind.NONE)).isEqualTo(2);
            assertThat(f.recentGenerations()).hasSize(2)
                    .allSatisfy(r -> assertThat(r.body().get("stream").asBoolean()).isTrue());
            // The slot is free again: the next stream is served.
            CompletableFuture<HttpResponse<String>> next = CompletableFuture.supplyAsync(() -> Http.post(f, "/chat/completions", body));
            Await.until("the next stream generating; " + clock, () -> clock.sleeping().size() == 1);
            clock.advance(Duration.ofMillis(300));
            assertThat(text(Sse.chunks(next.get()), 0)).isEqualTo("one two");
        }
    }

    @Test
    void streamParametersAreValidatedAndUnsimulatedFeaturesStillRefused() {
        record Case(String extra, String param) {
        }
        for (Case c : List.of(new Case("\"stream\":\"yes\"", "stream"),
                new Case("\"stream_options\":{\"include_usage\":true}", "stream_options"),
                new Case("\"stream\":false,\"stream_options\":{\"include_usage\":true}", "stream_options"),
                new Case("\"stream\":true,\"stream_options\":5", "stream_options"),
                new Case("\"stream\":true,\"stream_options\":{\"include_usage\":1}", "stream_options.include_usage"),
                new Case("\"stream\":true,\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}]", "tools"),
                new Case("\"stream\":true,\"response_format\":{\"type\":\"json_object\"}", "response_format"))) {
            HttpResponse<String> r = Http.post(sim, "/chat/completions", userMessage("say hello", c.extra()));
            assertThat(r.statusCode()).as(c.extra()).isEqualTo(400);
            assertThat(Http.json(r).get("error").get("param").asText()).as(c.extra()).isEqualTo(c.param());
        }
        assertThat(text(streamChat(userMessage("say hello", "\"stream\":true,\"tools\":[]")), 0)).isEqualTo("Hello, world!");
        assertThat(Http.post(sim, "/chat/completions", userMessage("say hello", "\"stream\":false"))
                .headers().firstValue("Content-Type")).contains("application/json");
        assertThat(Http.chat(sim, userMessage("say hello", "\"stream\":null,\"stream_options\":null")).get("object").asText())
                .isEqualTo("chat.completion");
    }
}
