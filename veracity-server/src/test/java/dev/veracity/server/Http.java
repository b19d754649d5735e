package dev.veracity.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** Plain HTTP to the server, for what the OpenAI clients would hide: statuses, headers, the raw event stream. */
final class Http {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    record Reply(int status, String body, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (Exception e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        JsonNode error() {
            return json().path("error");
        }

        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        /** The lines of an event stream that are not blank. */
        List<String> events() {
            List<String> out = new ArrayList<>();
            for (String l : body.split("\n")) {
                if (!l.isEmpty()) {
                    out.add(l);
                }
            }
            return out;
        }
    }

    private Http() {
    }

    static Reply post(String url, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b.build());
    }

    static Reply get(String url, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b.build());
    }

    static Reply send(HttpRequest r) {
        try {
            HttpResponse<String> resp = CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
            return new Reply(resp.statusCode(), resp.body(), resp);
        } catch (Exception e) {
            throw new AssertionError(r.uri() + ": " + e, e);
        }
    }

    /** A chat completion body for the question with the documents as strings, plus extra fields (raw JSON). */
    static String chat(String model, String extraFields) {
        StringBuilder docs = new StringBuilder();
        for (var d : Served.DOCS) {
            docs.append(docs.isEmpty() ? "" : ", ").append(JSON.valueToTree(d.text()).toString());
        }
        return "{\"model\": " + JSON.valueToTree(model) + ", \"messages\": [{\"role\": \"user\", \"content\": "
                + JSON.valueToTree(Served.QUESTION) + "}], \"documents\": [" + docs + "]"
                + (extraFields.isEmpty() ? "" : ", " + extraFields) + "}";
    }
}
