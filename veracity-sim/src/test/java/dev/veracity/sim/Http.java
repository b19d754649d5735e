package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A plain java.net.http client for the tests: what a real caller would send. */
final class Http {
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    static final ObjectMapper JSON = new ObjectMapper();

    private Http() {
    }

    static HttpRequest.Builder request(SimServer sim, String path) {
        // a guard against a hung test only: the tests decide when answers come
        return HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).timeout(Duration.ofSeconds(60));
    }

    static HttpResponse<String> get(SimServer sim, String path) {
        return send(request(sim, path).GET().build());
    }

    static HttpResponse<String> send(HttpRequest request) {
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** POSTs with the given headers (name, value, name, value...). */
    static HttpResponse<String> post(SimServer sim, String path, String body, String... headers) {
        HttpRequest.Builder b = request(sim, path).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    /** POSTs and returns the JSON body, asserting a 200. */
    static JsonNode ok(SimServer sim, String path, String body) {
        HttpResponse<String> r = post(sim, path, body);
        assertThat(r.statusCode()).as("status of %s", r.body()).isEqualTo(200);
        return json(r);
    }

    static JsonNode chat(SimServer sim, String body) {
        return ok(sim, "/chat/completions", body);
    }

    static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A chat request body with one user message (JSON-escaped). */
    static String userMessage(String content, String extraFields) {
        String escaped = JSON.getNodeFactory().textNode(content).toString();
        return "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":" + escaped + "}]"
                + (extraFields.isEmpty() ? "" : "," + extraFields) + "}";
    }
}
