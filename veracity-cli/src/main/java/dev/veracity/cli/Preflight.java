package dev.veracity.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.config.VeracityConfig;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * One request before a run's first model call: {@code GET /models} on the configured server. A server that is down
 * or does not answer, refused credentials, a server that is not an OpenAI-compatible API (404, 405 or 501 on
 * {@code /models}, or a page that is not JSON; a base URL without {@code /v1} whose {@code /v1} answers is named) and
 * a model the server does not list stop the run before any question is asked, in one line. A gateway without a
 * models endpoint runs with {@code --no-preflight}; other failures (a 5xx of a server still loading) are let through
 * for the client's retries.
 */
final class Preflight {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Preflight() {
    }

    private record Response(int statusCode, String body, String contentType) {
    }

    /**
     * One GET. HttpURLConnection rather than java.net.http: its classes are in the JDK's shared archive, so the check
     * costs a round trip, not a second HTTP stack's start-up.
     */
    private static Response get(String url, VeracityConfig cfg) throws IOException {
        java.net.HttpURLConnection c = (java.net.HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        cfg.apiKey().ifPresent(k -> c.setRequestProperty("Authorization", "Bearer " + k.reveal()));
        try {
            int status = c.getResponseCode();
            String body = "";
            if (status == 200) {
                try (java.io.InputStream in = c.getInputStream()) {
                    body = new String(in.readNBytes(16 << 20), java.nio.charset.StandardCharsets.UTF_8);
                }
            }
            return new Response(status, body, c.getContentType());
        } finally {
            c.disconnect();
        }
    }

    /** The body as a JSON object or array, or null when it is not JSON (an HTML page). */
    private static JsonNode json(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            return n != null && n.isContainerNode() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * A server that answers, but not as an OpenAI-compatible API: with its base URL lacking {@code /v1} and its
     * {@code /v1/models} answering, says which URL to pass.
     */
    private static IllegalArgumentException notOpenAi(VeracityConfig cfg, String base, String answer) {
        String url = cfg.llmBaseUrl();
        boolean noV1 = !URI.create(base).getPath().matches(".*/v\\d+/?$");
        if (noV1) {
            try {
                Response v1 = get(base + "v1/models", cfg);
                if (v1.statusCode() == 200 && json(v1.body()) != null || v1.statusCode() == 401 || v1.statusCode() == 403) {
                    return new IllegalArgumentException("the model server at " + url + " answered GET " + base
                            + "models with " + answer + ", but its OpenAI-compatible API is at " + base + "v1: pass"
                            + " --llm-base-url " + base + "v1 (nothing was run)");
                }
            } catch (IOException | IllegalArgumentException e) {
                // no better advice than the one below
            }
        }
        return new IllegalArgumentException("the server at " + url + " is not an OpenAI-compatible API (GET " + base
                + "models answered " + answer + ")" + (noV1 ? "; such a base URL ends in /v1, e.g."
                + " http://127.0.0.1:8000/v1" : "; check --llm-base-url") + "; a gateway without a models endpoint"
                + " runs with --no-preflight (nothing was run)");
    }

    static void check(VeracityConfig cfg) {
        String base = cfg.llmBaseUrl().endsWith("/") ? cfg.llmBaseUrl() : cfg.llmBaseUrl() + "/";
        Response r;
        try {
            r = get(base + "models", cfg);
        } catch (java.net.SocketTimeoutException e) {
            throw new IllegalArgumentException("the model server at " + cfg.llmBaseUrl() + " did not answer within 10 s;"
                    + " check that it runs and is not overloaded (nothing was run)");
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot reach the model server at " + cfg.llmBaseUrl() + " ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + "); start it, or fix --llm-base-url (nothing was run)");
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new IllegalArgumentException("the model server at " + cfg.llmBaseUrl() + " refused the credentials (HTTP "
                    + r.statusCode() + "); set VERACITY_API_KEY (or OPENAI_API_KEY) (nothing was run)");
        }
        if (r.statusCode() == 404 || r.statusCode() == 405 || r.statusCode() == 501) {
            throw notOpenAi(cfg, base, "HTTP " + r.statusCode());
        }
        if (r.statusCode() != 200) {
            return; // a server error (one still loading its model): the client's retries and typed errors speak
        }
        JsonNode models = json(r.body());
        if (models == null) {
            throw notOpenAi(cfg, base, "a body that is not JSON" + (r.contentType() == null ? ""
                    : " (" + r.contentType() + ")"));
        }
        List<String> served = new ArrayList<>();
        models.path("data").forEach((JsonNode m) -> served.add(m.path("id").asText()));
        if (!served.isEmpty() && !served.contains(cfg.model())) {
            throw new IllegalArgumentException("the model server at " + cfg.llmBaseUrl() + " does not serve model '"
                    + cfg.model() + "'; it serves: " + String.join(", ", served) + " (pass --model; nothing was run)");
        }
    }
}
