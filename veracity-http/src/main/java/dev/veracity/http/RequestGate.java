package dev.veracity.http;

import java.util.function.Function;

/**
 * Decides whether a request to a route may proceed, before its body is read and before it takes one of the server's
 * concurrent places: authentication and per-client limits, so that a client without a key or over its rate costs the
 * server a header read, not a body. {@code GET /health} and {@code GET /metrics} never pass through it.
 * <p>A refusal is an {@link HttpProblem} (401 with {@code WWW-Authenticate}, 429 with {@code Retry-After}); an
 * admission is closed when the request has been answered, to give back what it held (a per-client place).
 */
@FunctionalInterface
public interface RequestGate {

    /** Lets every request through. */
    RequestGate OPEN = (method, path, headers) -> Admission.ANONYMOUS;

    /**
     * @param method  the HTTP method
     * @param path    the request's path
     * @param headers a request header's value by name (case-insensitive), or null
     * @return what the request holds until it is answered
     * @throws HttpProblem to refuse the request
     */
    Admission admit(String method, String path, Function<String, String> headers);

    /** An admitted request: who it is (a label safe to log, never a credential) and what to give back. */
    interface Admission extends AutoCloseable {

        /** Nobody in particular, holding nothing. */
        Admission ANONYMOUS = () -> "";

        /** A label of the client safe for logs and metrics ({@code key-1}); "" when unknown. */
        String principal();

        /** Gives back what the request held; called once, when it has been answered. */
        @Override
        default void close() {
        }
    }
}
