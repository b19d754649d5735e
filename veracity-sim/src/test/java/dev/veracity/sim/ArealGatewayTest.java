package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulator's AReaL gateway: the protocol of AReaL 1.0.4's proxy gateway, and what it records. */
class ArealGatewayTest {

    SimServer sim;

    @BeforeEach
    void start() {
        sim = SimServer.start(SimConfig.builder().areal("admin-key")
                .rules(RuleSet.of(Rule.of("capital", "Paris."), Rule.of("colour", "Blue."))).build());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private HttpResponse<String> post(String path, String key, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(sim.arealUrl() + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return Http.send(b.build());
    }

    private static String chat(String content) {
        return Http.userMessage(content, "\"temperature\":0.7");
    }

    @Test
    void aSessionRecordsItsInteractionsAndTheRewardsSetOnThem() {
        HttpResponse<String> started = post("/rl/start_session", "admin-key", "{\"task_id\":\"q1\"}");
        assertThat(started.statusCode()).isEqualTo(200);
        JsonNode s = Http.json(started);
        assertThat(s.get("session_id").asText()).isEqualTo("q1-0");
        String key = s.get("api_key").asText();
        assertThat(key).startsWith("sk-sess-");

        JsonNode a = Http.json(post("/chat/completions", key, chat("What is the capital?")));
        JsonNode b = Http.json(post("/chat/completions", key, chat("What colour?")));
        String idA = a.get("id").asText();
        String idB = b.get("id").asText();
        assertThat(idA).startsWith("chatcmpl-").isNotEqualTo(idB);
        assertThat(a.get("choices").get(0).get("message").get("content").asText()).isEqualTo("Paris.");

        assertThat(post("/rl/set_reward", key, "{\"reward\":0.25,\"interaction_id\":\"" + idA + "\"}").body())
                .isEqualTo("{\"message\":\"success\"}");
        assertThat(post("/rl/set_reward", key, "{\"reward\":-1,\"interaction_id\":null}").statusCode()).isEqualTo(200);
        HttpResponse<String> ended = post("/rl/end_session", key, "{}");
        assertThat(ended.body()).isEqualTo("{\"message\":\"success\",\"interaction_count\":2}");

        assertThat(sim.arealSessions()).singleElement().satisfies(session -> {
            assertThat(session.sessionId()).isEqualTo("q1-0");
            assertThat(session.ended()).isTrue();
            assertThat(session.interactions()).extracting(ArealSession.Interaction::id).containsExactly(idA, idB);
            assertThat(session.interactions()).extracting(ArealSession.Interaction::reward).containsExactly(0.25, -1.0);
            assertThat(session.interactions()).extracting(ArealSession.Interaction::response).containsExactly("Paris.", "Blue.");
            assertThat(session.interactions().getFirst().prompt()).isEqualTo("What is the capital?");
        });
        // the same task again is a new session
        assertThat(Http.json(post("/rl/start_session", "admin-key", "{\"task_id\":\"q1\"}")).get("session_id").asText())
                .isEqualTo("q1-1");
    }

    @Test
    void theGatewaysRefusalsAreAReaLs() {
        assertThat(post("/rl/start_session", "wrong", "{\"task_id\":\"q\"}").statusCode()).isEqualTo(401);
        assertThat(post("/rl/start_session", null, "{\"task_id\":\"q\"}").statusCode()).isEqualTo(401);
        assertThat(post("/rl/start_session", "admin-key", "{}").statusCode()).isEqualTo(422);
        String key = Http.json(post("/rl/start_session", "admin-key", "{\"task_id\":\"q\"}")).get("api_key").asText();
        HttpResponse<String> noInteraction = post("/rl/set_reward", key, "{\"reward\":1}");
        assertThat(noInteraction.statusCode()).isEqualTo(400);
        assertThat(noInteraction.body()).isEqualTo("{\"detail\":\"No interactions in session\"}");
        HttpResponse<String> n2 = post("/chat/completions", key, Http.userMessage("capital", "\"n\":2"));
        assertThat(n2.statusCode()).isEqualTo(500);
        assertThat(n2.body()).contains("n != 1 is not supported yet");
        post("/chat/completions", key, chat("capital"));
        assertThat(post("/rl/set_reward", key, "{\"reward\":1,\"interaction_id\":\"chatcmpl-nope\"}").body())
                .isEqualTo("{\"detail\":\"Interaction chatcmpl-nope not found\"}");
        assertThat(post("/rl/set_reward", key, "{\"reward\":\"high\"}").statusCode()).isEqualTo(422);
        assertThat(post("/chat/completions", "not-a-session", chat("capital")).statusCode()).isEqualTo(401);
        assertThat(post("/rl/end_session", key, "{}").statusCode()).isEqualTo(200);
        assertThat(post("/rl/end_session", key, "{}").statusCode()).isEqualTo(401);       // the route is gone
        assertThat(post("/chat/completions", key, chat("capital")).statusCode()).isEqualTo(401);
        assertThat(sim.arealSessions().getFirst().interactions()).hasSize(1);            // the refused n=2 left nothing
    }

    @Test
    void withoutTheOptionTheGatewayIsNotServed() {
        try (SimServer plain = SimServer.start()) {
            HttpResponse<String> r = Http.send(HttpRequest.newBuilder(URI.create(plain.arealUrl() + "/rl/start_session"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"task_id\":\"q\"}")).build());
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(plain.arealSessions()).isEmpty();
        }
    }
}
