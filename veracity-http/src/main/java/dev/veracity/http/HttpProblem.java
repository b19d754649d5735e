package dev.veracity.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A request the server refuses, with the status and a reason the client can act on; a route (or a
 * {@link RequestGate}) throws it and the server answers with {@link ErrorBody}. No stack trace ever reaches a client.
 * A problem may name the request field at fault ({@link #withParam}, OpenAI's {@code param}) and carry response
 * headers ({@link #withHeader}: {@code Retry-After} on a 429, {@code WWW-Authenticate} on a 401).
 */
public final class HttpProblem extends RuntimeException {

    private final int status;
    private final String code;
    private final String param;
    private final Map<String, String> headers;

    /**
     * @param status the HTTP status (4xx or 5xx)
     * @param code   a stable machine-readable name (e.g. {@code bad_json}, {@code body_too_large})
     * @param reason one line saying what is wrong and what to send instead
     */
    public HttpProblem(int status, String code, String reason) {
        this(status, code, reason, null, Map.of());
    }

    private HttpProblem(int status, String code, String reason, String param, Map<String, String> headers) {
        super(Objects.requireNonNull(reason, "reason"), null, false, false);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("a problem has a 4xx or 5xx status, was " + status);
        }
        this.status = status;
        this.code = Objects.requireNonNull(code, "code");
        this.param = param;
        this.headers = Map.copyOf(headers);
    }

    /** 400 {@code bad_request}. */
    public static HttpProblem badRequest(String reason) {
        return new HttpProblem(400, "bad_request", reason);
    }

    /** 413 {@code code}: a body or batch over its limit. */
    public static HttpProblem tooLarge(String code, String reason) {
        return new HttpProblem(413, code, reason);
    }

    /** This problem naming the request field at fault (OpenAI's {@code param}, e.g. {@code model}, {@code n}). */
    public HttpProblem withParam(String field) {
        return new HttpProblem(status, code, getMessage(), field, headers);
    }

    /** This problem with a response header (a header's value is sent as given: keep it ASCII, no line breaks). */
    public HttpProblem withHeader(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return new HttpProblem(status, code, getMessage(), param, h);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** The request field at fault, or null. */
    public String param() {
        return param;
    }

    /** Response headers to send with the error. */
    public Map<String, String> headers() {
        return headers;
    }
}
