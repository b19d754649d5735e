package dev.veracity.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * One request as a route sees it: the parsed JSON body, when it arrived, and the server's limits.
 */
public final class JsonCall {

    private final String method;
    private final String path;
    private final JsonNode body;
    private final long startedNanos;
    private final ServerLimits limits;
    private final Function<String, String> headers;

    JsonCall(String method, String path, JsonNode body, long startedNanos, ServerLimits limits,
             Function<String, String> headers) {
        this.method = method;
        this.path = path;
        this.body = body;
        this.startedNanos = startedNanos;
        this.limits = limits;
        this.headers = headers;
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }

    /** The request body as JSON (strictly parsed: one value, no duplicate keys); null for a request without one. */
    public JsonNode body() {
        return body;
    }

    /** {@link System#nanoTime()} when the server took the request, before its body was read. */
    public long startedNanos() {
        return startedNanos;
    }

    /** The time left before the server's request deadline. */
    public Duration remaining() {
        return Duration.ofNanos(startedNanos + limits.requestDeadline().toNanos() - System.nanoTime());
    }

    public ServerLimits limits() {
        return limits;
    }

    /** A request header's value, or null. */
    public String header(String name) {
        return headers.apply(name);
    }

    /**
     * Refuses a batch over {@link ServerLimits#maxBatch()} with 413 {@code batch_too_large}.
     *
     * @param what the batch's name in the message, e.g. {@code "query"}
     */
    public void requireBatch(int items, String what) {
        if (items > limits.maxBatch()) {
            throw HttpProblem.tooLarge("batch_too_large", String.format(Locale.ROOT,
                    "%s has %,d items; this server takes at most %,d per request: send smaller batches",
                    what, items, limits.maxBatch()));
        }
    }
}
