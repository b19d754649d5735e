package dev.veracity.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One request's answer, sent at most once: the route's reply, the deadline's 503 from the timer thread, or the
 * failure of a client that has gone, whichever comes first; the others are dropped. A route may instead open an event
 * stream ({@link EventStream}): the status and headers go out at once, events follow, and the stream ends when the
 * route returns (with an error event when it failed or was cancelled). Records the answer's metrics.
 */
final class Exchange {

    private static final int OPEN = 0;
    private static final int STREAMING = 1;
    private static final int DONE = 2;

    private final Response response;
    private final Callback callback;
    private final ServerMetrics metrics;
    private final String route;
    private final long startedNanos;
    private final BooleanSupplier stopping;
    private final long idleTimeoutMillis;
    private final AtomicInteger state = new AtomicInteger(OPEN);
    /** Why a streaming route was interrupted (its deadline), told to the client in the stream's last event. */
    private volatile HttpProblem cancelReason;
    /** A stream write failed or was abandoned half-way: the stream cannot be ended with more bytes. */
    private volatile boolean broken;

    /**
     * @param stopping          whether the server's stop has begun
     * @param idleTimeoutMillis the connections' idle timeout ({@link ServerLimits#idleTimeout()})
     */
    Exchange(Response response, Callback callback, ServerMetrics metrics, String route, long startedNanos,
             BooleanSupplier stopping, long idleTimeoutMillis) {
        this.response = response;
        this.callback = callback;
        this.metrics = metrics;
        this.route = route;
        this.startedNanos = startedNanos;
        this.stopping = stopping;
        this.idleTimeoutMillis = idleTimeoutMillis;
        metrics.started();
    }

    boolean answered() {
        return state.get() != OPEN;
    }

    boolean streaming() {
        return state.get() == STREAMING;
    }

    void cancelReason(HttpProblem reason) {
        this.cancelReason = reason;
    }

    HttpProblem cancelReason() {
        return cancelReason;
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
        if (p.headers().isEmpty()) {
            return json(p.status(), ErrorBody.of(p), headers);
        }
        Map<String, String> all = new java.util.LinkedHashMap<>(p.headers());
        all.putAll(headers);
        return json(p.status(), ErrorBody.of(p), all);
    }

    boolean problem(HttpProblem p) {
        return problem(p, Map.of());
    }

    boolean send(int status, String contentType, byte[] body, Map<String, String> headers) {
        if (!state.compareAndSet(OPEN, DONE)) {
            return false;
        }
        head(status, contentType, body.length, headers);
        response.write(true, ByteBuffer.wrap(body), callback);
        metrics.answered(route, status, startedNanos);
        return true;
    }

    /**
     * Answers with the problem, waits until the answer is sent (at most {@code timeout}), then runs {@code after}
     * (which reads what is left of the request) before the request is done: Jetty closes a connection whose request
     * was not read to its end once the request is done, which a client still sending would see as a broken pipe.
     * False when the request was already answered.
     */
    boolean problemThen(HttpProblem p, Duration timeout, Runnable after) {
        if (!state.compareAndSet(OPEN, DONE)) {
            return false;
        }
        byte[] body;
        try {
            body = Json.MAPPER.writeValueAsBytes(ErrorBody.of(p));
        } catch (JsonProcessingException e) {
            body = new byte[0];
        }
        head(p.status(), "application/json", body.length, p.headers());
        Callback.Completable sent = new Callback.Completable();
        response.write(true, ByteBuffer.wrap(body), sent);
        metrics.answered(route, p.status(), startedNanos);
        try {
            sent.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            callback.failed(e instanceof ExecutionException x ? x.getCause() : e);
            return true;
        }
        after.run();
        callback.succeeded();
        return true;
    }

    private void head(int status, String contentType, long length, Map<String, String> headers) {
        duringStop();
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
        putHeaders(headers);
    }

    /**
     * Commits a 200 with {@code text/event-stream} and the headers; false when the request was already answered (its
     * deadline passed) or its client has gone. Nothing is written yet: the first event sends the headers with it.
     */
    boolean openStream(Map<String, String> headers) {
        if (!state.compareAndSet(OPEN, STREAMING)) {
            return false;
        }
        duringStop();
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        // nginx buffers proxied answers unless told not to, which would hold the events back until the end
        response.getHeaders().put("X-Accel-Buffering", "no");
        putHeaders(headers);
        return true;
    }

    /**
     * Writes part of an open stream and waits until it is sent; an IOException when the stream is over or the client
     * has gone (a write that cannot progress for {@code timeout} counts as gone).
     */
    void write(byte[] bytes, Duration timeout) throws IOException {
        if (state.get() != STREAMING) {
            throw new IOException("the stream is closed");
        }
        if (broken) {
            throw new IOException("the client has gone");
        }
        duringStop();
        Callback.Completable sent = new Callback.Completable();
        response.write(false, ByteBuffer.wrap(bytes), sent);
        try {
            sent.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            broken = true;
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while writing the stream");
        } catch (ExecutionException e) {
            broken = true;
            throw new IOException("the client has gone: " + e.getCause().getClass().getSimpleName(), e.getCause());
        } catch (TimeoutException e) {
            broken = true;
            throw new IOException("the client read nothing for " + timeout.toMillis() + " ms");
        }
    }

    /** Ends an open stream, after an error event when {@code lastEvent} is given; false when it was not open. */
    boolean endStream(byte[] lastEvent) {
        if (!state.compareAndSet(STREAMING, DONE)) {
            return false;
        }
        if (broken) {
            // a write is still pending or the connection failed: another write would be refused, so fail the answer
            callback.failed(new IOException("the client has gone"));
            metrics.answered(route, 499, startedNanos);
            return true;
        }
        response.write(true, ByteBuffer.wrap(lastEvent == null ? new byte[0] : lastEvent), callback);
        metrics.answered(route, 200, startedNanos);
        return true;
    }

    /** The client has gone or the connection failed: nothing can be answered any more. */
    boolean abandon(Throwable cause) {
        int s = state.get();
        if (s == DONE || !state.compareAndSet(s, DONE)) {
            return false;
        }
        callback.failed(cause);
        metrics.answered(route, 499, startedNanos); // nginx's "client closed request"
        return true;
    }

    /**
     * Once the stop has begun, Jetty shortens every connection's idle timeout to 100 ms (to close idle keep-alive
     * connections) and an idle check that meets a write in progress fails it: measured under load, 2 answers in 25
     * never reached their client. So an answer written during the stop gets its connection's idle timeout back, and
     * {@code Connection: close} (nothing more will be read on it).
     */
    private void duringStop() {
        if (!stopping.getAsBoolean()) {
            return;
        }
        if (!response.isCommitted()) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        EndPoint endPoint = response.getRequest().getConnectionMetaData().getConnection().getEndPoint();
        if (endPoint.getIdleTimeout() < idleTimeoutMillis) {
            endPoint.setIdleTimeout(idleTimeoutMillis);
        }
    }

    private void putHeaders(Map<String, String> headers) {
        headers.forEach((k, v) -> response.getHeaders().put(k, headerSafe(v)));
    }

    /** A header value as HTTP allows it: printable ASCII (anything else, line breaks included, becomes '?'). */
    static String headerSafe(String value) {
        StringBuilder b = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                if (b == null) {
                    b = new StringBuilder(value);
                }
                b.setCharAt(i, '?');
            }
        }
        return b == null ? value : b.toString();
    }
}
