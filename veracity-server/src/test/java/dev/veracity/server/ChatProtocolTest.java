package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The chat completions protocol over plain HTTP: what is refused and how, documents, options, the raw stream. */
class ChatProtocolTest {

    private static Served served;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        served = Served.start(SimConfig.defaults(), s -> s.withLimits(s.limits().withMaxBodyBytes(64 * 1024).withMaxBatch(8)),
                b -> b, Duration.ofSeconds(30));
        url = served.v1() + "/chat/completions";
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    private static void assertError(Http.Reply r, int status, String code, String param) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.header("Content-Type")).isEqualTo("application/json");
        JsonNode e = r.error();
        assertThat(e.path("code").asText()).as(r.body()).isEqualTo(code);
        assertThat(e.path("type").asText()).isEqualTo(status >= 500 ? "server_error" : status == 429 ? "rate_limit_error"
                : "invalid_request_error");
        assertThat(e.path("message").asText()).isNotBlank().doesNotContain("\n").doesNotContain("Exception")
                .doesNotContain("dev.veracity");
        if (param != null) {
            assertThat(e.path("param").asText()).isEqualTo(param);
        }
    }

    @Test
    void malformedBodiesWrongTypesAndUnknownFieldsAreOpenAiShaped400s() {
        assertError(Http.post(url, "{\"model\": \"no-rag\", \"messages\": [}"), 400, "bad_json", null);
        assertError(Http.post(url, "[1, 2]"), 400, "invalid_type", null);
        assertError(Http.post(url, Http.chat("standard-rag", "\"temprature\": 0.2")), 400, "unknown_parameter", "temprature");
        assertError(Http.post(url, Http.chat("standard-rag", "\"temperature\": \"hot\"")), 400, "invalid_type", "temperature");
        assertError(Http.post(url, Http.chat("standard-rag", "\"temperature\": 7")), 400, "invalid_value", "temperature");
        assertError(Http.post(url, Http.chat("standard-rag", "\"stream\": \"yes\"")), 400, "invalid_type", "stream");
        assertError(Http.post(url, "{\"model\": 5, \"messages\": [{\"role\": \"user\", \"content\": \"q\"}]}"), 400,
                "invalid_type", "model");
        assertError(Http.post(url, "{\"model\": \"no-rag\"}"), 400, "missing_required_parameter", "messages");
        assertError(Http.post(url, "{\"model\": \"no-rag\", \"messages\": \"hi\"}"), 400, "invalid_type", "messages");
        assertError(Http.post(url, "{\"model\": \"no-rag\", \"messages\": [{\"role\": \"robot\", \"content\": \"q\"}]}"),
                400, "invalid_value", "messages[0].role");
        assertError(Http.post(url, "{\"model\": \"no-rag\", \"messages\": [{\"role\": \"user\", \"content\": \"q\","
                + " \"colour\": 1}]}"), 400, "unknown_parameter", "messages[0]");
        assertError(Http.post(url, "{\"model\": \"no-rag\", \"messages\": [{\"role\": \"user\", \"content\": [{\"type\":"
                + " \"image_url\", \"image_url\": {\"url\": \"x\"}}]}]}"), 400, "unsupported_content", "messages[0].content[0]");
        assertError(Http.post(url, "{\"model\": \"no-rag\", \"messages\": [{\"role\": \"system\", \"content\": \"q\"}]}"),
                400, "invalid_value", "messages");
        assertError(Http.post(url, Http.chat("standard-rag", "\"n\": 2")), 400, "invalid_value", "n");
        assertError(Http.post(url, Http.chat("standard-rag", "\"tools\": [{\"type\": \"function\", \"function\": {\"name\":"
                + " \"f\"}}]")), 400, "unsupported_parameter", "tools");
        assertError(Http.post(url, Http.chat("standard-rag", "\"response_format\": {\"type\": \"json_object\"}")), 400,
                "unsupported_parameter", "response_format");
        assertError(Http.post(url, Http.chat("standard-rag", "\"logprobs\": true")), 400, "unsupported_parameter", "logprobs");
        assertError(Http.post(url, Http.chat("standard-rag", "\"stream_options\": {\"include_usage\": true}")), 400,
                "invalid_value", "stream_options");
        // neutral values of those fields pass
        assertThat(Http.post(url, Http.chat("standard-rag", "\"n\": 1, \"tools\": [], \"logprobs\": false,"
                + " \"response_format\": {\"type\": \"text\"}, \"tool_choice\": \"none\"")).status()).isEqualTo(200);
    }

    @Test
    void oversizedBodiesAndTooManyDocumentsOrMessagesAre413() {
        String big = Http.chat("standard-rag", "\"user\": \"" + "x".repeat(70 * 1024) + "\"");
        assertError(Http.post(url, big), 413, "body_too_large", null);
        StringBuilder docs = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            docs.append(i == 0 ? "" : ", ").append("\"doc ").append(i).append("\"");
        }
        assertError(Http.post(url, "{\"model\": \"standard-rag\", \"messages\": [{\"role\": \"user\", \"content\": \"q\"}],"
                + " \"documents\": [" + docs + "]}"), 413, "batch_too_large", null);
    }

    @Test
    void anUnknownModelIs404InOpenAisShape() {
        Http.Reply r = Http.post(url, Http.chat("gpt-4o", ""));
        assertError(r, 404, "model_not_found", "model");
        assertThat(r.error().path("message").asText()).startsWith("The model `gpt-4o` does not exist").contains("madam-rag");
        assertError(Http.post(url, Http.chat("standard-rag@gpt-4o", "")), 404, "model_not_found", "model");
        assertError(Http.post(url, Http.chat("march+march", "")), 404, "model_not_found", "model");
        assertError(Http.get(served.v1() + "/models/nothing"), 404, "model_not_found", "model");
    }

    @Test
    void methodOptionsAreCheckedAgainstTheMethodsDeclarationAndApplied() {
        Http.Reply unknown = Http.post(url, Http.chat("madam-rag", "\"veracity_options\": {\"roundz\": 2}"));
        assertError(unknown, 400, "invalid_option", "veracity_options");
        assertThat(unknown.error().path("message").asText()).contains("roundz").contains("rounds=");
        assertError(Http.post(url, Http.chat("madam-rag", "\"veracity_options\": {\"rounds\": \"many\"}")), 400,
                "invalid_option", "veracity_options");
        assertError(Http.post(url, Http.chat("madam-rag", "\"veracity_options\": {\"rounds\": {\"n\": 1}}")), 400,
                "invalid_type", null);

        Http.Reply one = Http.post(url, Http.chat("madam-rag", "\"veracity_options\": {\"rounds\": 1, \"early-stop\": false}"));
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        Served.Reference expected = served.inProcess("madam-rag", Served.QUESTION, Served.DOCS,
                Map.of("rounds", "1", "early-stop", "false"));
        assertThat(one.json().at("/choices/0/message/content").asText()).isEqualTo(expected.answer().prediction());
        assertThat(one.json().at("/veracity/calls/count").asInt()).isEqualTo(expected.stats().calls()).isEqualTo(4);
        assertThat(one.json().at("/veracity/options/rounds").asText()).isEqualTo("1");
        // typed as declared: an int is a number, a boolean a boolean, never text
        assertThat(one.json().at("/veracity/options/rounds").isInt()).isTrue();
        assertThat(one.json().at("/veracity/options/early-stop").isBoolean()).isTrue();
        Http.Reply defaults = Http.post(url, Http.chat("madam-rag", ""));
        assertThat(defaults.json().at("/veracity/options/rounds").asText()).isEqualTo("3");
    }

    @Test
    void documentsComeFromTheBodyOrADocumentsMessageNeverBothAndAreRequiredByRagMethods() {
        Http.Reply fromBody = Http.post(url, Http.chat("standard-rag", ""));
        StringBuilder numbered = new StringBuilder("Documents:");
        for (int i = 0; i < Served.DOCS.size(); i++) {
            numbered.append("\n[").append(i + 1).append("] ").append(Served.DOCS.get(i).text());
        }
        String asMessage = "{\"model\": \"standard-rag\", \"messages\": [{\"role\": \"system\", \"content\": "
                + Http.JSON.valueToTree(numbered.toString()) + "}, {\"role\": \"user\", \"content\": "
                + Http.JSON.valueToTree(Served.QUESTION) + "}]}";
        Http.Reply fromMessage = Http.post(url, asMessage);
        assertThat(fromMessage.status()).as(fromMessage.body()).isEqualTo(200);
        assertThat(fromMessage.json().at("/choices/0/message/content").asText())
                .isEqualTo(fromBody.json().at("/choices/0/message/content").asText())
                .isEqualTo(served.inProcess("standard-rag", Served.QUESTION, Served.DOCS, Map.of()).answer().prediction());
        assertThat(fromMessage.json().at("/veracity/documents/ids").toString()).isEqualTo("[\"1\",\"2\",\"3\"]");
        assertThat(fromMessage.json().at("/veracity/ignored")).isEmpty();

        String both = asMessage.substring(0, asMessage.length() - 1) + ", \"documents\": [\"x\"]}";
        assertError(Http.post(url, both), 400, "invalid_value", "documents");
        assertError(Http.post(url, "{\"model\": \"standard-rag\", \"messages\": [{\"role\": \"user\", \"content\": \"q\"}]}"),
                400, "missing_documents", "documents");
        assertError(Http.post(url, Http.chat("standard-rag", "").replace("\"documents\": [", "\"documents\": [{\"txt\": \"a\"}, ")),
                400, "unknown_parameter", "documents[0]");
        assertError(Http.post(url, "{\"model\": \"standard-rag\", \"messages\": [{\"role\": \"system\", \"content\":"
                + " \"Documents:\\nno markers\"}, {\"role\": \"user\", \"content\": \"q\"}]}"), 400, "invalid_value", "messages[0]");

        // a closed-book method answers without documents, and says it ignored those it was given
        Http.Reply noRag = Http.post(url, "{\"model\": \"no-rag\", \"messages\": [{\"role\": \"user\", \"content\": "
                + Http.JSON.valueToTree(Served.QUESTION) + "}]}");
        assertThat(noRag.status()).isEqualTo(200);
        assertThat(noRag.json().at("/veracity/documents/source").asText()).isEqualTo("none");
        Http.Reply noRagWithDocs = Http.post(url, Http.chat("no-rag", "\"temperature\": 0.3, \"max_tokens\": 20"));
        assertThat(noRagWithDocs.json().at("/choices/0/message/content").asText())
                .isEqualTo(noRag.json().at("/choices/0/message/content").asText());
        List<String> ignored = new ArrayList<>();
        noRagWithDocs.json().at("/veracity/ignored").forEach(i -> ignored.add(i.asText()));
        assertThat(ignored).contains("temperature", "max_tokens").anyMatch(i -> i.startsWith("documents"));
    }

    @Test
    void aNonStreamedAnswerIsAChatCompletionWithUsageAndHeaders() {
        Http.Reply r = Http.post(url, Http.chat("standard-rag", ""));
        JsonNode c = r.json();
        assertThat(c.path("object").asText()).isEqualTo("chat.completion");
        assertThat(c.path("id").asText()).startsWith("chatcmpl-").isEqualTo(r.header("X-Request-Id"));
        assertThat(c.at("/choices/0/message/role").asText()).isEqualTo("assistant");
        assertThat(c.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        long tokens = served.inProcess("standard-rag", Served.QUESTION, Served.DOCS, Map.of()).stats().totalTokens();
        assertThat(c.at("/usage/total_tokens").asLong()).isEqualTo(tokens).isPositive();
        assertThat(r.header("X-Veracity-Tokens")).isEqualTo(Long.toString(tokens));
        assertThat(r.header("X-Veracity-Method")).isEqualTo("standard-rag");
        assertThat(r.header("X-Veracity-Calls")).isEqualTo("1");
        assertThat(r.header("X-Veracity-Abstained")).isEqualTo("false");
        assertThat(r.header("X-Veracity-Verification")).isNull();
    }

    @Test
    void modelsAreListedWithOptionsAndOneCanBeAskedForByName() {
        JsonNode list = Http.get(served.v1() + "/models").json();
        assertThat(list.path("object").asText()).isEqualTo("list");
        JsonNode madam = null;
        for (JsonNode m : list.path("data")) {
            if (m.path("id").asText().equals("madam-rag")) {
                madam = m;
            }
        }
        assertThat(madam).isNotNull();
        assertThat(madam.path("object").asText()).isEqualTo("model");
        assertThat(madam.path("owned_by").asText()).isEqualTo("veracity");
        assertThat(madam.path("description").asText()).isNotBlank();
        assertThat(madam.path("options").findValuesAsText("name")).contains("rounds", "shuffle");
        assertThat(list.path("upstream_models").toString()).isEqualTo("[\"sim-model\",\"other-model\"]");
        Http.Reply one = Http.get(served.v1() + "/models/standard-rag%2Bmarch%2Babstain");
        assertThat(one.status()).isEqualTo(200);
        assertThat(one.json().path("id").asText()).isEqualTo("standard-rag+march+abstain");
        assertThat(one.json().path("options").findValuesAsText("name")).contains("march.samples");
    }

    @Test
    void healthReadinessAndMetrics() throws Exception {
        assertThat(Http.get(served.server.baseUrl() + "/healthz").json().path("status").asText()).isEqualTo("ok");
        assertThat(Http.get(served.server.baseUrl() + "/readyz").status()).isEqualTo(200);
        Http.post(url, Http.chat("standard-rag", ""));
        Http.post(url, Http.chat("nope", ""));
        String metrics = Http.get(served.server.baseUrl() + "/metrics").body();
        assertThat(metrics).contains("veracity_serve_requests_total{method=\"standard-rag\",status=\"200\",stream=\"false\"}")
                .contains("veracity_serve_requests_total{method=\"unknown\",status=\"404\",stream=\"false\"}")
                .contains("veracity_serve_upstream_calls_total{method=\"standard-rag\"}")
                .contains("veracity_serve_upstream_tokens_total{kind=\"prompt\",method=\"standard-rag\"}")
                .contains("veracity_serve_overhead_seconds_bucket")
                .contains("veracity_http_requests_total{route=\"/v1/chat/completions\",status=\"200\"}");

        // an upstream that does not answer: not ready, with the reason; healthy all the same
        try (Served down = Served.start(SimConfig.defaults(), s -> s, b -> b.probe(UpstreamProbe.models(
                "http://127.0.0.1:1/v1", null, Duration.ofSeconds(2))), Duration.ofSeconds(5))) {
            Http.Reply ready = Http.get(down.server.baseUrl() + "/readyz");
            assertThat(ready.status()).isEqualTo(503);
            assertThat(ready.json().path("reason").asText()).contains("not reachable");
            assertThat(Http.get(down.server.baseUrl() + "/healthz").status()).isEqualTo(200);
        }
    }

    @Test
    void aStreamIsServerSentEventsWithKeepAlivesWhileTheMethodWorksThenChunksAndDone() throws Exception {
        try (Served slow = Served.start(SimConfig.builder().latency(LatencyModel.ofMillis(250, 0)).build(),
                s -> s.withKeepAlive(Duration.ofMillis(100)), b -> b, Duration.ofSeconds(30))) {
            Http.Reply r = Http.post(slow.v1() + "/chat/completions", Http.chat("madam-rag",
                    "\"stream\": true, \"stream_options\": {\"include_usage\": true}"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Type")).isEqualTo("text/event-stream; charset=utf-8");
            assertThat(r.header("X-Veracity-Method")).isEqualTo("madam-rag");
            List<String> lines = r.events();
            int firstData = 0;
            while (!lines.get(firstData).startsWith("data: ")) {
                assertThat(lines.get(firstData)).isEqualTo(": keep-alive");
                firstData++;
            }
            assertThat(firstData).as("keep-alives while 6 calls of 250 ms run").isGreaterThanOrEqualTo(3);
            assertThat(lines.getLast()).isEqualTo("data: [DONE]");
            List<JsonNode> chunks = new ArrayList<>();
            for (String l : lines.subList(firstData, lines.size() - 1)) {
                assertThat(l).startsWith("data: ");
                chunks.add(Http.JSON.readTree(l.substring(6)));
            }
            String id = chunks.getFirst().path("id").asText();
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < chunks.size(); i++) {
                JsonNode c = chunks.get(i);
                assertThat(c.path("id").asText()).isEqualTo(id);
                assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk");
                if (i < chunks.size() - 1) {
                    assertThat(c.has("usage") && c.path("usage").isNull()).as("usage: null before the last chunk").isTrue();
                    text.append(c.at("/choices/0/delta/content").asText(""));
                }
            }
            assertThat(chunks.getFirst().at("/choices/0/delta/role").asText()).isEqualTo("assistant");
            JsonNode finish = chunks.get(chunks.size() - 2);
            assertThat(finish.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
            assertThat(finish.at("/veracity/method").asText()).isEqualTo("madam-rag");
            JsonNode usage = chunks.getLast();
            assertThat(usage.path("choices")).isEmpty();
            Served.Reference expected = slow.inProcess("madam-rag", Served.QUESTION, Served.DOCS, Map.of());
            assertThat(usage.at("/usage/total_tokens").asLong()).isEqualTo(expected.stats().totalTokens());
            assertThat(text.toString()).isEqualTo(expected.answer().prediction());
        }
    }

    @Test
    void anUpstreamFailureIsA502BeforeTheStreamOpensAndAnErrorEventAfter() throws Exception {
        FaultKind[] failing = new FaultKind[40];
        java.util.Arrays.fill(failing, FaultKind.SERVER_ERROR);
        try (Served broken = Served.start(SimConfig.builder().faults(FaultPlan.script(failing)).build(), s -> s, b -> b,
                Duration.ofSeconds(30))) {
            Http.Reply r = Http.post(broken.v1() + "/chat/completions", Http.chat("standard-rag", "\"stream\": true"));
            assertError(r, 502, "upstream_error", null);
            assertThat(r.error().path("message").asText()).contains("server error (HTTP 500) after 3 attempts")
                    .doesNotContain("127.0.0.1");
        }
        FaultKind[] lateFailure = new FaultKind[40];
        java.util.Arrays.fill(lateFailure, FaultKind.SERVER_ERROR);
        lateFailure[0] = FaultKind.NONE;
        lateFailure[1] = FaultKind.NONE;
        lateFailure[2] = FaultKind.NONE;
        try (Served late = Served.start(SimConfig.builder().latency(LatencyModel.ofMillis(150, 0))
                .faults(FaultPlan.script(lateFailure)).build(), s -> s.withKeepAlive(Duration.ofMillis(50)), b -> b,
                Duration.ofSeconds(30))) {
            // madam-rag: three agents answer, then every later call fails: the stream is open by then
            Http.Reply r = Http.post(late.v1() + "/chat/completions", Http.chat("madam-rag", "\"stream\": true"));
            assertThat(r.status()).isEqualTo(200);
            List<String> lines = r.events();
            assertThat(lines.getFirst()).isEqualTo(": keep-alive");
            assertThat(lines.getLast()).startsWith("data: {\"error\":");
            JsonNode error = Http.JSON.readTree(lines.getLast().substring(6)).path("error");
            assertThat(error.path("code").asText()).isEqualTo("upstream_error");
            assertThat(lines).doesNotContain("data: [DONE]");
        }
    }
}
