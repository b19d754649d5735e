package dev.veracity.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.config.VeracityConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One request before a run's first model call: {@code GET /models} on the configured server. A server that is down
 * or does not answer, refused credentials, or a model the server does not list stop the run before any question is
 * asked, in one line; a server without a models endpoint (some gateways) is let through.
 */
final class Preflight {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Preflight() {
    }

    static void check(VeracityConfig cfg) {
        String base = cfg.llmBaseUrl().endsWith("/") ? cfg.llmBaseUrl() : cfg.llmBaseUrl() + "/";
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + "models")).timeout(Duration.ofSeconds(10)).GET();
        cfg.apiKey().ifPresent(k -> req.header("Authorization", "Bearer " + k.reveal()));
        HttpResponse<String> r;
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new IllegalArgumentException("the model server at " + cfg.llmBaseUrl() + " did not answer within 10 s;"
                    + " check that it runs and is not overloaded (nothing was run)");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot reach the model server at " + cfg.llmBaseUrl() + " ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + "); start it, or fix --llm-base-url (nothing was run)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the model server", e);
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new IllegalArgumentException("the model server at " + cfg.llmBaseUrl() + " refused the credentials (HTTP "
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
        if (!served.isEmpty() && !served.contains(cfg.model())) {
            throw new IllegalArgumentException("the model server at " + cfg.llmBaseUrl() + " does not serve model '"
                    + cfg.model() + "'; it serves: " + String.join(", ", served) + " (pass --model; nothing was run)");
        }
    }
}
