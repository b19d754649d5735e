package dev.veracity.rl.areal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.config.ApiKey;
import dev.veracity.config.Secrets;
import dev.veracity.rl.jsonl.JsonlRows;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * The session side of AReaL's online mode, against its proxy gateway (AReaL 1.0.4,
 * {@code areal/experimental/openai/proxy/proxy_gateway.py}, {@code server.py}, {@code proxy_rollout_server.py};
 * {@code docs/en/tutorial/online_proxy.md}): {@code POST /rl/start_session} with the admin key as bearer and
 * {@code {"task_id"}} gives {@code {"session_id", "api_key"}}; the session's chat completions go to
 * {@code POST /chat/completions} with that key as bearer (any OpenAI client, see {@link #policyUrl()}); then
 * {@code POST /rl/set_reward} {@code {"reward", "interaction_id"}} per interaction (its chat completion's {@code id})
 * and {@code POST /rl/end_session}, whose answer {@code {"message", "interaction_count"}} says how many interactions
 * AReaL recorded (and will train on).
 *
 * <p>A 429 on start_session is AReaL's staleness control ("no capacity"): retried with back-off for up to
 * {@code capacityWait}. Any other refusal is an {@link ArealException}: one line with the path, status and AReaL's
 * {@code detail}. The session key is registered as a secret (masked in any message) and forgotten once the session
 * ended.
 */
public final class ArealClient {

    /** AReaL's default {@code rollout.agent.admin_api_key}, used when none is configured. */
    public static final String DEFAULT_ADMIN_KEY = "areal-admin-key";

    /**
     * One open session.
     *
     * @param id  AReaL's session id ({@code TASK-0}, ...)
     * @param key the session's API key, the bearer of its chat completions
     */
    public record Session(String id, ApiKey key) {
        public Session {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(key, "key");
        }
    }

    private final String url;
    private final ApiKey adminKey;
    private final Duration timeout;
    private final Duration capacityWait;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * @param url          the gateway's root, e.g. {@code http://10.0.0.5:8090} (no {@code /v1}: AReaL serves
     *                     {@code /chat/completions} at its root)
     * @param adminKey     {@code rollout.agent.admin_api_key}
     * @param timeout      per request
     * @param capacityWait how long start_session keeps retrying AReaL's 429 (no capacity)
     */
    public ArealClient(String url, ApiKey adminKey, Duration timeout, Duration capacityWait) {
        String u = Objects.requireNonNull(url, "url").strip();
        this.url = u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
        URI parsed = URI.create(this.url);
        if (!("http".equals(parsed.getScheme()) || "https".equals(parsed.getScheme())) || parsed.getHost() == null) {
            throw new IllegalArgumentException("--areal must be the gateway's http(s) URL, e.g. http://127.0.0.1:8090,"
                    + " was '" + url + "'");
        }
        this.adminKey = Objects.requireNonNull(adminKey, "adminKey");
        this.timeout = timeout;
        this.capacityWait = capacityWait;
    }

    /** The gateway root, the base URL of the session's OpenAI-compatible chat completions. */
    public String policyUrl() {
        return url;
    }

    /** Starts a session for one task (a question); waits out AReaL's 429s up to the capacity wait. */
    public Session startSession(String taskId) {
        ObjectNode body = JsonlRows.JSON.createObjectNode().put("task_id", taskId);
        long deadline = System.nanoTime() + capacityWait.toNanos();
        long backoff = 500;
        while (true) {
            HttpResponse<String> r = post("/rl/start_session", adminKey, body);
            if (r.statusCode() == 429 && System.nanoTime() + backoff * 1_000_000 < deadline) {
                sleep(backoff);
                backoff = Math.min(backoff * 2, 10_000);
                continue;
            }
            JsonNode a = answer("/rl/start_session", r);
            if (!a.path("session_id").isTextual() || !a.path("api_key").isTextual() || a.get("api_key").asText().isBlank()) {
                throw new ArealException(url + "/rl/start_session: the answer has no session_id and api_key: "
                        + abbreviate(r.body()));
            }
            return new Session(a.get("session_id").asText(), ApiKey.of(a.get("api_key").asText()));
        }
    }

    /** Sets the reward of one interaction (a chat completion's {@code id}) of the session. */
    public void setReward(Session s, String interactionId, double reward) {
        Objects.requireNonNull(interactionId, "interactionId");
        if (!Double.isFinite(reward)) {
            throw new IllegalArgumentException("a reward must be a finite number, was " + reward);
        }
        answer("/rl/set_reward", post("/rl/set_reward", s.key(), JsonlRows.JSON.createObjectNode()
                .put("reward", reward).put("interaction_id", interactionId)));
    }

    /** Ends the session (AReaL exports it for training); the number of interactions AReaL recorded. */
    public int endSession(Session s) {
        JsonNode a = answer("/rl/end_session", post("/rl/end_session", s.key(), JsonlRows.JSON.createObjectNode()));
        Secrets.forget(s.key().reveal());
        if (!a.path("interaction_count").canConvertToInt()) {
            throw new ArealException(url + "/rl/end_session: the answer has no interaction_count: " + a);
        }
        return a.get("interaction_count").asInt();
    }

    private HttpResponse<String> post(String path, ApiKey bearer, ObjectNode body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + path)).timeout(timeout)
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + bearer.reveal())
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ArealException(url + path + ": no answer (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); is the AReaL gateway running?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ArealException(url + path + ": interrupted", e);
        }
    }

    /** A 200's JSON object, or the refusal as one line with AReaL's {@code detail}. */
    private JsonNode answer(String path, HttpResponse<String> r) {
        JsonNode a;
        try {
            a = JsonlRows.JSON.readTree(r.body());
        } catch (IOException e) {
            a = null;
        }
        if (r.statusCode() != 200) {
            String why = a != null && a.path("detail").isTextual() ? a.get("detail").asText() : abbreviate(r.body());
            throw new ArealException(Secrets.redact(url + path + ": HTTP " + r.statusCode() + ": " + why
                    + hint(r.statusCode())));
        }
        if (a == null || !a.isObject()) {
            throw new ArealException(url + path + ": the answer is not a JSON object: " + abbreviate(r.body()));
        }
        return a;
    }

    private static String hint(int status) {
        return switch (status) {
            case 401, 403 -> " (check VERACITY_AREAL_ADMIN_KEY against rollout.agent.admin_api_key)";
            case 429 -> " (no capacity: the trainer has not cycled; rerun later, finished questions are kept)";
            default -> "";
        };
    }

    private static String abbreviate(String s) {
        String t = s == null ? "" : s.strip().replaceAll("\\s+", " ");
        return t.length() > 300 ? t.substring(0, 300) + "..." : t;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ArealException("interrupted while waiting for AReaL capacity", e);
        }
    }
}
