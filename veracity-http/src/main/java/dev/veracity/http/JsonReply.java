package dev.veracity.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** A route's answer: a status and a JSON body. */
public record JsonReply(int status, JsonNode body) {

    public JsonReply {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("not an HTTP status: " + status);
        }
        Objects.requireNonNull(body, "body");
    }

    public static JsonReply ok(JsonNode body) {
        return new JsonReply(200, body);
    }
}
