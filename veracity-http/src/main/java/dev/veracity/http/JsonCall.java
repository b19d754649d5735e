package dev.veracity.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One request as a route sees it: the parsed JSON body, when it arrived, who sent it (as the {@link RequestGate}
 * admitted it), the server's limits, and the way to answer with server-sent events ({@link #openEvents}).
 */
public final class JsonCall {

    private final String method;
    private final String path;
    private final JsonNode body;
    private final long startedNanos;
    private final ServerLimits limits;
    private final Function<String, String> headers;
    private final String principal;
    private final Exchange exchange;
    private EventStream events;

    JsonCall(String method, String path, JsonNode body, long startedNanos, ServerLimits limits,
             Function<String, String> headers, String principal, Exchange exchange) {
        this.method = method;
        this.path = path;
        this.body = body;
        this.startedNanos = startedNanos;
        this.limits = limits;
        this.headers = headers;
        this.principal = principal;
        this.exchange = exchange;
    }

    public String method() {
        return method;
    }

    /** The request's path (for a prefix route, the whole path, e.g. {@code /v1/models/march}). */
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

    /** The client as the server's {@link RequestGate} admitted it ({@code key-1}; never a credential), or "". */
    public String principal() {
        return principal;
    }

    /**
     * Answers with server-sent events: 200, {@code text/event-stream}, {@code Cache-Control: no-cache} and the given
     * headers go out with the first event. Once open, the route's return value is not sent; the stream ends when the
     * route returns (see {@link EventStream}). A second call returns the same stream.
     *
     * @throws IOException when the request was already answered (its deadline passed) or its client has gone
     */
    public EventStream openEvents(Map<String, String> responseHeaders) throws IOException {
        if (events == null) {
            if (!exchange.openStream(responseHeaders)) {
                throw new IOException("the request was already answered (deadline passed or client gone)");
            }
            events = new EventStream(exchange, limits.idleTimeout());
        }
        return events;
    }

    /**
     * Answers at once with a body that is not JSON (a page, a script, a style sheet) and the given headers; the route
     * then returns what this returns ({@link JsonReply#streamed()}: nothing more is sent).
     *
     * @param contentType the body's media type, e.g. {@code text/html; charset=utf-8}
     */
    public JsonReply send(int status, String contentType, byte[] body, Map<String, String> responseHeaders) {
        exchange.send(status, contentType, body, responseHeaders);
        return JsonReply.streamed();
    }

    /** The 413's header stating the batch limit, so that a client can split its batch to fit. */
    static final String MAX_BATCH_HEADER = "X-Max-Batch-Items";

    /**
     * Refuses a batch over {@link ServerLimits#maxBatch()} with 413 {@code batch_too_large} and the limit in the
     * {@code X-Max-Batch-Items} header.
     *
     * @param what the batch's name in the message, e.g. {@code "query"}
     */
    public void requireBatch(int items, String what) {
        if (items > limits.maxBatch()) {
            throw HttpProblem.tooLarge("batch_too_large", String.format(Locale.ROOT,
                    "%s has %,d items; this server takes at most %,d per request: send smaller batches",
                    what, items, limits.maxBatch())).withHeader(MAX_BATCH_HEADER, Integer.toString(limits.maxBatch()));
        }
    }
}
