package dev.veracity.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.config.VeracityConfig;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * One request before a run's first model call: {@code GET /models} on the configured server, and on the proxy's
 * when a method runs on two ({@code --proxy-base-url}, {@code --proxy-model}). A server that is down or does not
 * answer, refused credentials, a server that is not an OpenAI-compatible API (404, 405 or 501 on {@code /models}, or
 * a page that is not JSON; a base URL without {@code /v1} whose {@code /v1} answers is named) and a model the server
 * does not list stop the run before any question is asked, in one line naming the flag to fix. A gateway without a
 * models endpoint runs with {@code --no-preflight}; other failures (a 5xx of a server still loading) are let through
 * for the client's retries.
 */
final class Preflight {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Preflight() {
    }

    private record Response(int statusCode, String body, String contentType) {
    }

    /** Which server a check is about: how messages name it and the flags that set its URL and model. */
    private record Server(String what, String urlFlag, String modelFlag) {
    }

    private static final Server LLM = new Server("model server", "--llm-base-url", "--model");
    private static final Server PROXY = new Server("proxy server", "--proxy-base-url", "--proxy-model");

    /** The main server and model (each of several servers). */
    static void check(VeracityConfig cfg) {
        checkEach(cfg, cfg.llmBaseUrls(), cfg.model(), LLM);
    }

    /** The proxy's server and model (same credentials as the main server's); several servers comma-separated. */
    static void checkProxy(VeracityConfig cfg, String baseUrls, String model) {
        checkEach(cfg, VeracityConfig.splitUrls(baseUrls), model, PROXY);
    }

    /** A server that cannot be reached or did not answer in time: down, where another may be up. */
    private static final class Down extends IllegalArgumentException {
        final String url;
        final String why;

        Down(String message, String url, String why) {
            super(message);
            this.url = url;
            this.why = why;
        }
    }

    /**
     * Checks each of the servers. One server: its problem is the error, as always. Several: a server that is down
     * (unreachable, or no answer in 10 s) is a warning on stderr, and the run starts on the others (the client sends
     * it nothing until a probe finds it up); every one down is the error. Any other problem (credentials, not an
     * OpenAI-compatible API, a model not served) is an error whichever server has it: waiting does not mend it.
     */
    private static void checkEach(VeracityConfig cfg, List<String> urls, String model, Server server) {
        if (urls.size() == 1) {
            check(cfg, urls.getFirst(), model, server);
            return;
        }
        List<Down> down = new ArrayList<>();
        for (String url : urls) {
            try {
                check(cfg, url, model, server);
            } catch (Down d) {
                down.add(d);
            }
        }
        if (down.size() == urls.size()) {
            throw new IllegalArgumentException("none of the " + urls.size() + " " + server.what() + "s answers ("
                    + down.stream().map(d -> d.url + ": " + d.why).collect(java.util.stream.Collectors.joining("; "))
                    + "); start them, or fix " + server.urlFlag() + " (nothing was run)");
        }
        for (Down d : down) {
            System.err.println("warning: the " + server.what() + " at " + d.url + " is down (" + d.why + "); the run"
                    + " starts on the other " + (urls.size() - down.size()) + ", and it gets calls again once a probe"
                    + " finds it up");
        }
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
    private static IllegalArgumentException notOpenAi(VeracityConfig cfg, String url, String base, String answer,
                                                      Server server) {
        boolean noV1 = !URI.create(base).getPath().matches(".*/v\\d+/?$");
        if (noV1) {
            try {
                Response v1 = get(base + "v1/models", cfg);
                if (v1.statusCode() == 200 && json(v1.body()) != null || v1.statusCode() == 401 || v1.statusCode() == 403) {
                    return new IllegalArgumentException("the " + server.what() + " at " + url + " answered GET " + base
                            + "models with " + answer + ", but its OpenAI-compatible API is at " + base + "v1: pass "
                            + server.urlFlag() + " " + base + "v1 (nothing was run)");
                }
            } catch (IOException | IllegalArgumentException e) {
                // no better advice than the one below
            }
        }
        return new IllegalArgumentException("the " + server.what() + " at " + url + " is not an OpenAI-compatible API (GET "
                + base + "models answered " + answer + ")" + (noV1 ? "; such a base URL ends in /v1, e.g."
                + " http://127.0.0.1:8000/v1" : "; check " + server.urlFlag()) + "; a gateway without a models endpoint"
                + " runs with --no-preflight (nothing was run)");
    }

    private static void check(VeracityConfig cfg, String baseUrl, String model, Server server) {
        String base = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
        Response r;
        try {
            r = get(base + "models", cfg);
        } catch (java.net.SocketTimeoutException e) {
            throw new Down("the " + server.what() + " at " + baseUrl + " did not answer within 10 s;"
                    + " check that it runs and is not overloaded (nothing was run)", baseUrl, "no answer within 10 s");
        } catch (IOException | IllegalArgumentException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new Down("cannot reach the " + server.what() + " at " + baseUrl + " (" + why
                    + "); start it, or fix " + server.urlFlag() + " (nothing was run)", baseUrl, why);
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new IllegalArgumentException("the " + server.what() + " at " + baseUrl + " refused the credentials (HTTP "
                    + r.statusCode() + "); set VERACITY_API_KEY (or OPENAI_API_KEY) (nothing was run)");
        }
        if (r.statusCode() == 404 || r.statusCode() == 405 || r.statusCode() == 501) {
            throw notOpenAi(cfg, baseUrl, base, "HTTP " + r.statusCode(), server);
        }
        if (r.statusCode() != 200) {
            return; // a server error (one still loading its model): the client's retries and typed errors speak
        }
        JsonNode models = json(r.body());
        if (models == null) {
            throw notOpenAi(cfg, baseUrl, base, "a body that is not JSON" + (r.contentType() == null ? ""
                    : " (" + r.contentType() + ")"), server);
        }
        List<String> served = new ArrayList<>();
        models.path("data").forEach((JsonNode m) -> served.add(m.path("id").asText()));
        if (!served.isEmpty() && !served.contains(model)) {
            throw new IllegalArgumentException("the " + server.what() + " at " + baseUrl + " does not serve model '"
                    + model + "'; it serves: " + String.join(", ", served) + " (pass " + server.modelFlag()
                    + "; nothing was run)");
        }
    }
}
