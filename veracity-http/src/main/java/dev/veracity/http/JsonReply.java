package dev.veracity.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A route's answer: a status, a JSON body and response headers. A route that answered through an
 * {@link EventStream}, or with a body that is not JSON ({@link JsonCall#send}), returns {@link #streamed()}; whatever
 * it returns then is not sent.
 */
public record JsonReply(int status, JsonNode body, Map<String, String> headers) {

    private static final JsonReply STREAMED = new JsonReply(200, MissingNode.getInstance());

    public JsonReply {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("not an HTTP status: " + status);
        }
        Objects.requireNonNull(body, "body");
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    public JsonReply(int status, JsonNode body) {
        this(status, body, Map.of());
    }

    public static JsonReply ok(JsonNode body) {
        return new JsonReply(200, body);
    }

    /** What a route returns once it has answered through its event stream (ignored by the server). */
    public static JsonReply streamed() {
        return STREAMED;
    }

    /** This reply with a response header (a value is sent as given: keep it ASCII, no line breaks). */
    public JsonReply withHeader(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return new JsonReply(status, body, h);
    }
}
