package dev.veracity.server;

import dev.veracity.http.HttpProblem;

/**
 * A request's {@code model}: a method ({@code madam-rag}, {@code standard-rag+march+abstain}) and, after an
 * {@code @}, the upstream model it runs on ({@code march@qwen-72b}); without one, the server's default model.
 *
 * @param requested the name as the client sent it (echoed in the answer's {@code model})
 * @param method    the method's name
 * @param upstream  the upstream model, or null for the server's default
 */
public record ModelName(String requested, String method, String upstream) {

    /** Longer names are refused before any lookup: they are no method's. */
    static final int MAX_LENGTH = 256;

    static ModelName parse(String requested) {
        if (requested.isBlank()) {
            throw new HttpProblem(400, "invalid_value", "model is empty: name a method (GET /v1/models lists them)")
                    .withParam("model");
        }
        if (requested.length() > MAX_LENGTH) {
            throw new HttpProblem(404, "model_not_found", "The model is not served here: its name has "
                    + requested.length() + " characters (GET /v1/models lists the methods)").withParam("model");
        }
        int at = requested.indexOf('@');
        if (at < 0) {
            return new ModelName(requested, requested, null);
        }
        String upstream = requested.substring(at + 1);
        if (at == 0 || upstream.isEmpty()) {
            throw new HttpProblem(400, "invalid_value", "model '" + ClientText.quote(requested) + "': write METHOD or METHOD@UPSTREAM_MODEL")
                    .withParam("model");
        }
        return new ModelName(requested, requested.substring(0, at), upstream);
    }
}
