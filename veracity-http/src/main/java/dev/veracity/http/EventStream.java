package dev.veracity.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A route's answer as server-sent events ({@code text/event-stream}), opened with {@link JsonCall#openEvents}: each
 * {@link #data} is one {@code data: ...} event, each {@link #comment} one {@code : ...} line that clients ignore and
 * proxies see as traffic. Writes block until sent; one that fails means the client has gone (a write can fail only
 * once the connection is known broken, so a client that went away is noticed at the next write, not at once).
 * <p>The stream ends when the route returns. A route that throws an {@link HttpProblem}, or is cancelled by its
 * deadline or the server's stop, ends with one last event {@code data: {"error": {...}}} in {@link ErrorBody}'s shape,
 * which OpenAI's clients raise as an error. Used from the route's thread only.
 */
public final class EventStream {

    private final Exchange exchange;
    private final Duration writeTimeout;

    EventStream(Exchange exchange, Duration writeTimeout) {
        this.exchange = exchange;
        this.writeTimeout = writeTimeout;
    }

    /** Sends {@code data: <text>} and a blank line; the text must hold no line break (JSON written compactly). */
    public void data(String text) throws IOException {
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("an event's data holds no line break");
        }
        exchange.write(("data: " + text + "\n\n").getBytes(StandardCharsets.UTF_8), writeTimeout);
    }

    /** Sends {@code : <text>} and a blank line: a comment every SSE client skips, e.g. a keep-alive. */
    public void comment(String text) throws IOException {
        exchange.write((": " + text.replace('\n', ' ').replace('\r', ' ') + "\n\n").getBytes(StandardCharsets.UTF_8),
                writeTimeout);
    }

    /** The last event of a stream that failed: {@code data: {"error": ...}}. */
    static byte[] errorEvent(HttpProblem p) {
        try {
            return ("data: " + Json.MAPPER.writeValueAsString(ErrorBody.of(p)) + "\n\n").getBytes(StandardCharsets.UTF_8);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "data: {\"error\":{\"message\":\"the stream failed\",\"type\":\"server_error\"}}\n\n"
                    .getBytes(StandardCharsets.UTF_8);
        }
    }
}
