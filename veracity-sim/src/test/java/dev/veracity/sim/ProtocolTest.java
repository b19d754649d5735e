package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static dev.veracity.sim.Http.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Routing, validation errors, authentication, server quirks and /v1/models. */
class ProtocolTest {

    static SimServer sim;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder().models("sim-a", "sim-b").build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    /** Asserts an OpenAI-style error and returns its "error" object. */
    private static JsonNode error(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
        JsonNode error = Http.json(r).get("error");
        assertThat(error).isNotNull();
        assertThat(error.get("message").asText()).isNotBlank();
        assertThat(error.get("type").asText()).isNotBlank();
        assertThat(error.has("param")).isTrue();
        assertThat(error.has("code")).isTrue();
        return error;
    }

    @Test
    void modelsAreListedInOpenAiFormat() {
        HttpResponse<String> r = Http.get(sim, "/models");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode list = Http.json(r);
        assertThat(list.get("object").asText()).isEqualTo("list");
        assertThat(list.get("data")).hasSize(2);
        JsonNode first = list.get("data").get(0);
        assertThat(first.get("id").asText()).isEqualTo("sim-a");
        assertThat(first.get("object").asText()).isEqualTo("model");
        assertThat(first.get("created").isIntegralNumber()).isTrue();
        assertThat(first.get("owned_by").asText()).isNotBlank();
        assertThat(list.get("data").get(1).get("id").asText()).isEqualTo("sim-b");

        assertThat(Http.json(Http.get(sim, "/models/sim-b")).get("id").asText()).isEqualTo("sim-b");
        assertThat(error(Http.get(sim, "/models/gpt-9"), 404).get("code").asText()).isEqualTo("model_not_found");
        // A request naming no model is answered by the first one.
        assertThat(Http.chat(sim, "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}").get("model").asText()).isEqualTo("sim-a");
    }

    @Test
    void modelIdsMayContainSlashes() {
        try (SimServer hf = SimServer.start(SimConfig.builder().models("meta-llama/Llama-3.1-8B").build())) {
            assertThat(Http.json(Http.get(hf, "/models/meta-llama/Llama-3.1-8B")).get("id").asText()).isEqualTo("meta-llama/Llama-3.1-8B");
        }
    }

    @Test
    void unknownPathIs404() {
        assertThat(error(Http.post(sim, "/audio/speech", "{}"), 404).get("message").asText())
                .isEqualTo("Invalid URL (POST /v1/audio/speech)");
        error(Http.get(sim, "/chat/completions/x"), 404);
    }

    @Test
    void wrongMethodIs405WithAllow() {
        HttpResponse<String> r = Http.get(sim, "/chat/completions");
        error(r, 405);
        assertThat(r.headers().firstValue("Allow")).contains("POST");
        HttpResponse<String> models = Http.post(sim, "/models", "{}");
        error(models, 405);
        assertThat(models.headers().firstValue("Allow")).contains("GET");
    }

    @Test
    void malformedJsonAndMissingFieldsAre400() {
        assertThat(error(Http.post(sim, "/chat/completions", "{\"messages\": [}"), 400).get("message").asText())
                .contains("could not parse the JSON body");
        error(Http.post(sim, "/chat/completions", ""), 400);
        error(Http.post(sim, "/chat/completions", "[1,2]"), 400);

        JsonNode noMessages = error(Http.post(sim, "/chat/completions", "{\"model\":\"m\"}"), 400);
        assertThat(noMessages.get("param").asText()).isEqualTo("messages");
        assertThat(noMessages.get("message").asText()).contains("messages");
        assertThat(error(Http.post(sim, "/chat/completions", "{\"messages\":[]}"), 400).get("param").asText()).isEqualTo("messages");
        assertThat(error(Http.post(sim, "/chat/completions", "{\"messages\":[{\"content\":\"x\"}]}"), 400).get("param").asText())
                .isEqualTo("messages[0].role");

        assertThat(error(Http.post(sim, "/completions", "{\"model\":\"m\"}"), 400).get("param").asText()).isEqualTo("prompt");
        assertThat(error(Http.post(sim, "/completions", "{\"prompt\":[1,2,3]}"), 400).get("param").asText()).isEqualTo("prompt");
    }

    @Test
    void invalidParametersAre400NamingTheParameter() {
        assertThat(error(Http.post(sim, "/chat/completions", userMessage("x", "\"n\":0")), 400).get("param").asText()).isEqualTo("n");
        assertThat(error(Http.post(sim, "/chat/completions", userMessage("x", "\"max_tokens\":\"ten\"")), 400)
                .get("param").asText()).isEqualTo("max_tokens");
        assertThat(error(Http.post(sim, "/chat/completions", userMessage("x", "\"stop\":5")), 400).get("param").asText()).isEqualTo("stop");
        assertThat(error(Http.post(sim, "/chat/completions", userMessage("x", "\"top_logprobs\":21,\"logprobs\":true")), 400)
                .get("param").asText()).isEqualTo("top_logprobs");
    }

    @Test
    void generationForAModelNotServedIs404InOpenAiShape() {
        String expected = "{\"error\":{\"message\":\"The model `gpt-9` does not exist.\",\"type\":\"invalid_request_error\","
                + "\"param\":\"model\",\"code\":\"model_not_found\"}}";
        for (String stream : List.of("false", "true")) {
            HttpResponse<String> chat = Http.post(sim, "/chat/completions",
                    "{\"model\":\"gpt-9\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
            error(chat, 404);
            assertThat(chat.body()).isEqualTo(expected);
            HttpResponse<String> completion = Http.post(sim, "/completions",
                    "{\"model\":\"gpt-9\",\"stream\":" + stream + ",\"prompt\":\"x\"}");
            error(completion, 404);
            assertThat(completion.body()).isEqualTo(expected);
        }
        assertThat(Http.chat(sim, "{\"model\":\"sim-b\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}")
                .get("model").asText()).isEqualTo("sim-b");
        // A malformed request is a 400 first, whatever its model (as vLLM validates before it looks the model up).
        assertThat(error(Http.post(sim, "/chat/completions", userMessage("x", "\"n\":0")), 400).get("param").asText()).isEqualTo("n");
    }

    @Test
    void withoutAModelListAnyModelIsAnsweredUnderItsName() {
        assertThat(SimConfig.defaults().anyModel()).isTrue();
        assertThat(SimConfig.builder().models("a").build().anyModel()).isFalse();
        try (SimServer open = SimServer.start()) {
            assertThat(Http.chat(open, userMessage("x", "")).get("model").asText()).isEqualTo("m");
            assertThat(Http.json(Http.get(open, "/models")).get("data")).hasSize(1);
        }
        try (SimServer listedButOpen = SimServer.start(SimConfig.builder().models("a").anyModel(true).build())) {
            assertThat(Http.chat(listedButOpen, userMessage("x", "")).get("model").asText()).isEqualTo("m");
            error(Http.get(listedButOpen, "/models/m"), 404); // still not listed
        }
    }

    @Test
    void refuseNRejectsSeveralSamplesLikeSomeServers() {
        try (SimServer strict = SimServer.start(SimConfig.builder().refuseN(true).build())) {
            HttpResponse<String> r = Http.post(strict, "/chat/completions", userMessage("x", "\"n\":2"));
            JsonNode e = error(r, 400);
            assertThat(e.get("message").asText()).contains("n > 1 is not supported");
            assertThat(e.get("type").asText()).isEqualTo("invalid_request_error");
            assertThat(e.get("param").asText()).isEqualTo("n");
            assertThat(e.get("code").isNull()).isTrue();
            assertThat(Http.chat(strict, userMessage("x", "\"n\":1")).get("choices")).hasSize(1);
            assertThat(Http.post(strict, "/completions", "{\"prompt\":\"x\",\"n\":3}").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void requiredApiKeyGives401WithoutTheRightBearer() {
        try (SimServer locked = SimServer.start(SimConfig.builder().requiredApiKey("sk-sim").build())) {
            String body = userMessage("x", "");
            JsonNode missing = error(Http.post(locked, "/chat/completions", body), 401);
            assertThat(missing.get("message").asText()).contains("didn't provide an API key");
            JsonNode wrong = error(Http.post(locked, "/chat/completions", body, "Authorization", "Bearer sk-other"), 401);
            assertThat(wrong.get("code").asText()).isEqualTo("invalid_api_key");
            error(Http.get(locked, "/models"), 401);

            assertThat(Http.post(locked, "/chat/completions", body, "Authorization", "Bearer sk-sim").statusCode()).isEqualTo(200);
            assertThat(Http.send(Http.request(locked, "/models").header("Authorization", "Bearer sk-sim").GET().build())
                    .statusCode()).isEqualTo(200);
        }
    }

    @Test
    void countersCountRequestsPerEndpoint() {
        try (SimServer fresh = SimServer.start()) {
            Http.chat(fresh, userMessage("x", ""));
            Http.chat(fresh, userMessage("x", ""));
            Http.get(fresh, "/models");
            Http.get(fresh, "/chat/completions"); // 405 still counts for the endpoint
            Http.get(fresh, "/nowhere");
            SimCounters c = fresh.counters();
            assertThat(c.totalRequests()).isEqualTo(5);
            assertThat(c.requests(Endpoint.CHAT_COMPLETIONS)).isEqualTo(3);
            assertThat(c.requests(Endpoint.MODELS)).isEqualTo(1);
            assertThat(c.requests(Endpoint.COMPLETIONS)).isZero();
            assertThat(c.peakInFlight()).isEqualTo(1);
            assertThat(c.faultsInjected(FaultKind.NONE)).isEqualTo(2);
            c.reset();
            assertThat(c.totalRequests()).isZero();
            assertThat(c.requests(Endpoint.CHAT_COMPLETIONS)).isZero();
            assertThat(c.peakInFlight()).isZero();
        }
    }

    @Test
    void baseUrlIsLoopbackAndClosedServersRefuseConnections() {
        SimServer s = SimServer.start();
        assertThat(s.baseUrl()).isEqualTo("http://127.0.0.1:" + s.port() + "/v1");
        assertThat(s.port()).isPositive();
        s.close();
        s.close(); // idempotent
        HttpRequest r = Http.request(s, "/models").GET().build();
        assertThatThrownBy(() -> Http.send(r)).isInstanceOf(UncheckedIOException.class).cause().isInstanceOf(ConnectException.class);
    }

    @Test
    void configValidatesItsFields() {
        assertThatThrownBy(() -> SimConfig.builder().capacity(0).build()).hasMessageContaining("capacity");
        assertThatThrownBy(() -> SimConfig.builder().models().build()).hasMessageContaining("models");
        assertThatThrownBy(() -> SimConfig.builder().maxQueue(-1).build()).hasMessageContaining("maxQueue");
        assertThatThrownBy(() -> SimConfig.builder().port(70000).build()).hasMessageContaining("port");
        SimConfig c = SimConfig.builder().seed(9).refuseN(true).build();
        assertThat(c.toBuilder().build()).isEqualTo(c);
        assertThat(SimConfig.defaults().maxQueue()).isEmpty();
        assertThat(SimConfig.defaults().capacity()).isEqualTo(SimConfig.DEFAULT_CAPACITY);
    }
}
