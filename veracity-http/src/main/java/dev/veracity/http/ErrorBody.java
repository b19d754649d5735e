package dev.veracity.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON every error answer has, OpenAI's shape so that the clients of {@code veracity serve} read it too:
 * {@code {"error": {"message": "...", "type": "invalid_request_error" | "rate_limit_error" | "server_error",
 * "code": "bad_json" | "body_too_large" | ..., "param": "model"}}} ({@code param} only when a field is at fault).
 */
public final class ErrorBody {

    private ErrorBody() {
    }

    public static ObjectNode of(int status, String code, String message) {
        return of(status, code, message, null);
    }

    public static ObjectNode of(int status, String code, String message, String param) {
        ObjectNode error = JsonNodeFactory.instance.objectNode();
        error.put("message", message);
        error.put("type", status == 429 ? "rate_limit_error" : status >= 500 ? "server_error"
                : "invalid_request_error");
        error.put("code", code);
        if (param != null) {
            error.put("param", param);
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("error", error);
        return body;
    }

    public static ObjectNode of(HttpProblem p) {
        return of(p.status(), p.code(), p.getMessage(), p.param());
    }
}
