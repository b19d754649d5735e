package dev.veracity.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One request's answer, sent at most once: the route's reply, the deadline's 503 from the timer thread, or the
 * failure of a client that has gone, whichever comes first; the others are dropped. Records the answer's metrics.
 */
final class Exchange {

    private final Response response;
    private final Callback callback;
    private final ServerMetrics metrics;
    private final String route;
    private final long startedNanos;
    private final AtomicBoolean done = new AtomicBoolean();

    Exchange(Response response, Callback callback, ServerMetrics metrics, String route, long startedNanos) {
        this.response = response;
        this.callback = callback;
        this.metrics = metrics;
        this.route = route;
        this.startedNanos = startedNanos;
        metrics.started();
    }

    boolean answered() {
        return done.get();
    }

    boolean json(int status, JsonNode body, Map<String, String> headers) {
        byte[] bytes;
        try {
            bytes = Json.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            status = 500;
            bytes = ("{\"error\":{\"message\":\"the answer could not be written as JSON\",\"type\":\"server_error\","
                    + "\"code\":\"internal_error\"}}").getBytes(StandardCharsets.UTF_8);
        }
        return send(status, "application/json", bytes, headers);
    }

    boolean json(int status, JsonNode body) {
        return json(status, body, Map.of());
    }

    boolean problem(HttpProblem p, Map<String, String> headers) {
        return json(p.status(), ErrorBody.of(p), headers);
    }

    boolean problem(HttpProblem p) {
        return problem(p, Map.of());
    }

    boolean send(int status, String contentType, byte[] body, Map<String, String> headers) {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        headers.forEach((k, v) -> response.getHeaders().put(k, v));
        response.write(true, ByteBuffer.wrap(body), callback);
        metrics.answered(route, status, startedNanos);
        return true;
    }

    /** The client has gone or the connection failed: nothing can be answered any more. */
    boolean abandon(Throwable cause) {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        callback.failed(cause);
        metrics.answered(route, 499, startedNanos); // nginx's "client closed request"
        return true;
    }
}
