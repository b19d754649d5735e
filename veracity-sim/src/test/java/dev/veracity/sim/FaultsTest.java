package dev.veracity.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.testing.Await;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static dev.veracity.sim.ChatCompletionsTest.contents;
import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FaultsTest {

    private static final String ANSWER = "The quick brown fox jumps over the lazy dog";

    private static SimServer start(FaultPlan faults) {
        return SimServer.start(SimConfig.builder().rules(Rule.of("", ANSWER)).faults(faults).build());
    }

    private static HttpResponse<String> chat(SimServer sim) {
        return Http.post(sim, "/chat/completions", userMessage("hi", ""));
    }

    @Test
    void scriptedFaultsComeInOrderThenStop() {
        try (SimServer sim = start(FaultPlan.script(FaultKind.RATE_LIMIT, FaultKind.NONE, FaultKind.SERVER_ERROR))) {
            HttpResponse<String> limited = chat(sim);
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(limited.headers().firstValue("Retry-After")).contains("1");
            JsonNode error = Http.json(limited).get("error");
            assertThat(error.get("code").asText()).isEqualTo("rate_limit_exceeded");
            assertThat(error.get("message").asText()).isNotBlank();
            assertThat(error.has("param")).isTrue();

            assertThat(chat(sim).statusCode()).isEqualTo(200);

            HttpResponse<String> failed = chat(sim);
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(Http.json(failed).get("error").get("type").asText()).isEqualTo("server_error");

            for (int i = 0; i < 5; i++) {
                assertThat(chat(sim).statusCode()).isEqualTo(200);
            }
            assertThat(sim.counters().faultsInjected(FaultKind.RATE_LIMIT)).isEqualTo(1);
            assertThat(sim.counters().faultsInjected(FaultKind.SERVER_ERROR)).isEqualTo(1);
            assertThat(sim.counters().totalFaultsInjected()).isEqualTo(2);
        }
    }

    @Test
    void modelsAndInvalidRequestsDoNotUseUpScriptedFaults() {
        try (SimServer sim = start(FaultPlan.script(FaultKind.SERVER_ERROR))) {
            assertThat(Http.get(sim, "/models").statusCode()).isEqualTo(200);
            assertThat(Http.post(sim, "/chat/completions", "{\"model\":\"m\"}").statusCode()).isEqualTo(400);
            assertThat(chat(sim).statusCode()).isEqualTo(500);
            assertThat(chat(sim).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void hangOutlastsTheClientTimeoutAndEndsWhenTheServerCloses() {
        // The hang waits on a clock that never moves: the client's own 200 ms timeout ends the call, the close the hang.
        ManualClock clock = new ManualClock();
        SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("", ANSWER))
                .faults(FaultPlan.script(FaultKind.HANG)).clock(clock).build());
        HttpRequest request = Http.request(sim, "/chat/completions").timeout(Duration.ofMillis(200))
                .POST(HttpRequest.BodyPublishers.ofString(userMessage("hi", ""))).build();
        assertThatThrownBy(() -> Http.send(request)).hasCauseInstanceOf(HttpTimeoutException.class);
        assertThat(sim.counters().inFlight()).isEqualTo(1); // still held by the server
        assertThat(sim.counters().faultsInjected(FaultKind.HANG)).isEqualTo(1);
        assertThat(clock.sleeping()).containsExactly(FaultPlan.DEFAULT_HANG);

        sim.close();
        assertThat(clock.sleeping()).as("the hang woke on the close").isEmpty();
        assertThat(sim.counters().inFlight()).isZero();
        assertThat(clock.nanoTime()).isZero();
    }

    @Test
    void shortHangAnswersLate() throws Exception {
        ManualClock clock = new ManualClock();
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("", ANSWER))
                .faults(FaultPlan.script(FaultKind.HANG).withHangDuration(Duration.ofMillis(250))).clock(clock).build())) {
            CompletableFuture<HttpResponse<String>> call = CompletableFuture.supplyAsync(() -> chat(sim));
            Await.until("the hang; " + clock, () -> clock.sleeping().size() == 1);
            assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(250));
            clock.advance(Duration.ofMillis(249));
            assertThat(call).isNotDone();
            clock.advance(Duration.ofMillis(1));
            assertThat(call.get().statusCode()).isEqualTo(200);
        }
    }

    @Test
    void resetDropsTheConnectionWithoutAResponse() {
        try (SimServer sim = start(FaultPlan.script(FaultKind.RESET))) {
            assertThatThrownBy(() -> chat(sim))
                    .isInstanceOf(UncheckedIOException.class)
                    .cause().isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class);
            assertThat(chat(sim).statusCode()).isEqualTo(200); // a fresh connection works again
            assertThat(sim.counters().faultsInjected(FaultKind.RESET)).isEqualTo(1);
        }
    }

    @Test
    void malformedJsonIsA200ThatDoesNotParse() {
        try (SimServer sim = start(FaultPlan.script(FaultKind.MALFORMED_JSON))) {
            HttpResponse<String> r = chat(sim);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
            assertThat(r.body()).startsWith("{\"id\":\"chatcmpl-");
            assertThatThrownBy(() -> Http.JSON.readTree(r.body())).isInstanceOf(JsonProcessingException.class);
        }
    }

    @Test
    void truncatedAnswersAreCutShortWithLength() {
        try (SimServer sim = start(FaultPlan.script(FaultKind.TRUNCATED))) {
            JsonNode r = Http.json(chat(sim));
            // 9 tokens cut to 4.
            assertThat(contents(r)).containsExactly("The quick brown fox");
            assertThat(r.get("choices").get(0).get("finish_reason").asText()).isEqualTo("length");
            assertThat(r.get("usage").get("completion_tokens").asInt()).isEqualTo(4);
            assertThat(contents(Http.json(chat(sim)))).containsExactly(ANSWER);
        }
    }

    @Test
    void emptyContentIsValidButEmpty() {
        try (SimServer sim = start(FaultPlan.script(FaultKind.EMPTY_CONTENT))) {
            JsonNode r = Http.json(Http.post(sim, "/chat/completions", userMessage("hi", "\"n\":2")));
            assertThat(contents(r)).containsExactly("", "");
            assertThat(r.get("choices").get(0).get("finish_reason").asText()).isEqualTo("stop");
            assertThat(r.get("usage").get("completion_tokens").asInt()).isZero();
        }
    }

    @Test
    void aLoneSurrogateInAnAnswerIsSentAsAJsonEscapeLikeARealServer() throws Exception {
        // vLLM and others send a lone surrogate (half of a pair the tokenizer split) as a "\ud800" escape: the
        // body stays valid UTF-8, and a JSON parser decodes the escape into an unpaired UTF-16 char.
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("", "a\ud800b")).build())) {
            for (String path : List.of("/chat/completions", "/completions")) {
                String body = path.equals("/completions") ? "{\"model\":\"m\",\"prompt\":\"hi\"}" : userMessage("hi", "");
                HttpResponse<byte[]> r = Http.CLIENT.send(Http.request(sim, path)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(r.statusCode()).isEqualTo(200);
                String text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                        .decode(java.nio.ByteBuffer.wrap(r.body())).toString(); // strict: throws on malformed UTF-8
                assertThat(text).containsIgnoringCase("a\\ud800b").doesNotContain("?");
                assertThat(contents(Http.JSON.readTree(text))).containsExactly("a\ud800b");
            }
        }
    }

    @Test
    void completionsEndpointIsFaultedToo() {
        try (SimServer sim = start(FaultPlan.script(FaultKind.SERVER_ERROR))) {
            assertThat(Http.post(sim, "/completions", "{\"prompt\":\"x\"}").statusCode()).isEqualTo(500);
        }
    }

    @Test
    void ratesAreDeterministicForASeed() {
        FaultPlan plan = FaultPlan.parseRates("rate_limit=0.3, server-error=0.2");
        assertThat(plan.rates()).isEqualTo(Map.of(FaultKind.RATE_LIMIT, 0.3, FaultKind.SERVER_ERROR, 0.2));
        List<Integer> first = statuses(plan, 40);
        assertThat(statuses(plan, 40)).isEqualTo(first);
        assertThat(first).contains(200, 429, 500).containsOnly(200, 429, 500);

        try (SimServer always = start(FaultPlan.none().withRate(FaultKind.RATE_LIMIT, 1.0))) {
            for (int i = 0; i < 5; i++) {
                assertThat(chat(always).statusCode()).isEqualTo(429);
            }
            assertThat(always.counters().faultsInjected(FaultKind.RATE_LIMIT)).isEqualTo(5);
        }
    }

    @Test
    void rateDrawsMatchTheirRates() {
        FaultPlan plan = FaultPlan.rates(Map.of(FaultKind.HANG, 0.1, FaultKind.TRUNCATED, 0.25));
        int[] counts = new int[FaultKind.values().length];
        for (long i = 0; i < 20_000; i++) {
            counts[plan.choose(i, 99).ordinal()]++;
        }
        assertThat(counts[FaultKind.HANG.ordinal()]).isBetween(1800, 2200);
        assertThat(counts[FaultKind.TRUNCATED.ordinal()]).isBetween(4600, 5400);
        assertThat(counts[FaultKind.NONE.ordinal()]).isBetween(12_600, 13_400);
    }

    @Test
    void invalidPlansAreRejected() {
        assertThatThrownBy(() -> FaultPlan.none().withRate(FaultKind.HANG, 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FaultPlan.parseRates("hang=0.6,reset=0.6")).hasMessageContaining("more than 1");
        assertThatThrownBy(() -> FaultPlan.parseRates("explode=0.1")).hasMessageContaining("unknown fault kind 'explode'");
        assertThatThrownBy(() -> FaultPlan.parseRates("hang")).hasMessageContaining("KIND=RATE");
    }

    private static List<Integer> statuses(FaultPlan plan, int count) {
        List<Integer> out = new ArrayList<>();
        try (SimServer sim = SimServer.start(SimConfig.builder().seed(3).faults(plan).build())) {
            for (int i = 0; i < count; i++) {
                out.add(chat(sim).statusCode());
            }
        }
        return out;
    }
}
