package dev.veracity.rl.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** A test client: POSTs exact bytes as {@code application/json}, as aiohttp's {@code json=} does. */
final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    record Reply(int status, String body, HttpResponse<byte[]> raw) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String errorCode() {
            return json().path("error").path("code").asText();
        }

        String errorMessage() {
            return json().path("error").path("message").asText();
        }
    }

    private Http() {
    }

    static Reply post(String url, byte[] body) {
        try {
            HttpResponse<byte[]> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(r.statusCode(), new String(r.body(), StandardCharsets.UTF_8), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Reply post(String url, String body) {
        return post(url, body.getBytes(StandardCharsets.UTF_8));
    }

    static Reply get(String url) {
        try {
            HttpResponse<byte[]> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(r.statusCode(), new String(r.body(), StandardCharsets.UTF_8), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
