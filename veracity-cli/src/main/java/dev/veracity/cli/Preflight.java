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
 * answer, refused credentials, or a model the server does not list stop the run before any question is asked, in
 * one line naming the flag to fix; a server without a models endpoint (some gateways) is let through.
 */
final class Preflight {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Preflight() {
    }

    private record Response(int statusCode, String body) {
    }

    /** Which server a check is about: how messages name it and the flags that set its URL and model. */
    private record Server(String what, String urlFlag, String modelFlag) {
    }

    private static final Server LLM = new Server("model server", "--llm-base-url", "--model");
    private static final Server PROXY = new Server("proxy server", "--proxy-base-url", "--proxy-model");

    /** The main server and model. */
    static void check(VeracityConfig cfg) {
        check(cfg, cfg.llmBaseUrl(), cfg.model(), LLM);
    }

    /** The proxy's server and model (same credentials as the main server's). */
    static void checkProxy(VeracityConfig cfg, String baseUrl, String model) {
        check(cfg, baseUrl, model, PROXY);
    }

    private static void check(VeracityConfig cfg, String baseUrl, String model, Server server) {
        String base = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
        // HttpURLConnection rather than java.net.http: its classes are in the JDK's shared archive, so the check
        // costs a round trip, not a second HTTP stack's start-up
        Response r;
        try {
            java.net.HttpURLConnection c = (java.net.HttpURLConnection) URI.create(base + "models").toURL().openConnection();
            c.setConnectTimeout(5_000);
            c.setReadTimeout(10_000);
            cfg.apiKey().ifPresent(k -> c.setRequestProperty("Authorization", "Bearer " + k.reveal()));
            int status = c.getResponseCode();
            String body = "";
            if (status == 200) {
                try (java.io.InputStream in = c.getInputStream()) {
                    body = new String(in.readNBytes(16 << 20), java.nio.charset.StandardCharsets.UTF_8);
                }
            }
            c.disconnect();
            r = new Response(status, body);
        } catch (java.net.SocketTimeoutException e) {
            throw new IllegalArgumentException("the " + server.what() + " at " + baseUrl + " did not answer within 10 s;"
                    + " check that it runs and is not overloaded (nothing was run)");
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot reach the " + server.what() + " at " + baseUrl + " ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + "); start it, or fix " + server.urlFlag() + " (nothing was run)");
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new IllegalArgumentException("the " + server.what() + " at " + baseUrl + " refused the credentials (HTTP "
                    + r.statusCode() + "); set VERACITY_API_KEY (or OPENAI_API_KEY) (nothing was run)");
        }
        if (r.statusCode() != 200) {
            return; // no models endpoint here: the first call will tell
        }
        List<String> served = new ArrayList<>();
        try {
            JSON.readTree(r.body()).path("data").forEach((JsonNode m) -> served.add(m.path("id").asText()));
        } catch (IOException e) {
            return; // not the protocol's JSON: let the client's typed errors speak
        }
        if (!served.isEmpty() && !served.contains(model)) {
            throw new IllegalArgumentException("the " + server.what() + " at " + baseUrl + " does not serve model '"
                    + model + "'; it serves: " + String.join(", ", served) + " (pass " + server.modelFlag()
                    + "; nothing was run)");
        }
    }
}
