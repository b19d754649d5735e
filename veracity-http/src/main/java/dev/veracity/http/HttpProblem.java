package dev.veracity.http;

import java.util.Objects;

/**
 * A request the server refuses, with the status and a reason the client can act on; a route throws it and the server
 * answers with {@link ErrorBody}. No stack trace ever reaches a client.
 */
public final class HttpProblem extends RuntimeException {

    private final int status;
    private final String code;

    /**
     * @param status the HTTP status (4xx or 5xx)
     * @param code   a stable machine-readable name (e.g. {@code bad_json}, {@code body_too_large})
     * @param reason one line saying what is wrong and what to send instead
     */
    public HttpProblem(int status, String code, String reason) {
        super(Objects.requireNonNull(reason, "reason"), null, false, false);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("a problem has a 4xx or 5xx status, was " + status);
        }
        this.status = status;
        this.code = Objects.requireNonNull(code, "code");
    }

    /** 400 {@code bad_request}. */
    public static HttpProblem badRequest(String reason) {
        return new HttpProblem(400, "bad_request", reason);
    }

    /** 413 {@code code}: a body or batch over its limit. */
    public static HttpProblem tooLarge(String code, String reason) {
        return new HttpProblem(413, code, reason);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
