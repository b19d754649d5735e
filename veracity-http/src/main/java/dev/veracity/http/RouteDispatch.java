package dev.veracity.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The Jetty handler behind every {@link JsonServer}: built-in {@code GET /health} and {@code GET /metrics}, then the
 * routes, each request on its own virtual thread (Jetty's {@code VirtualThreadPool}) with the limits applied in this
 * order: route known (404, 405), a place among the concurrent requests (429 after the queue wait), the deadline timer,
 * the body (413, 400), the route. Whatever happens, the client gets one answer or, if it has gone, none.
 * The gate ({@link RequestGate}: authentication, per-client limits) runs before the place is taken and the body read.
 * A route that answers with an event stream ({@link EventStream}) has the stream ended here when it returns, with an
 * error event when it failed or was cancelled.
 */
final class RouteDispatch extends Handler.Abstract {

    private final Map<String, Map<String, JsonRoute>> routes;
    /** Routes by path prefix ({@code /v1/models/} answers {@code /v1/models/x}), longest prefix first. */
    private final Map<String, Map<String, JsonRoute>> prefixes;
    /** Jetty handlers mounted at a path ({@code /mcp} and below), behind the same gate, places, deadline and stop. */
    private final Map<String, Handler> mounts;
    private final RequestGate gate;
    private final ServerLimits limits;
    private final ServerMetrics metrics;
    private final ServerLog log;
    private final ScheduledExecutorService timer;
    private final BooleanSupplier stopping;
    private final Semaphore places;
    private final long idleMillis;
    /** The routes running now and their answers: answered 503 {@code stopping} and interrupted when the stop's grace ends. */
    private final Map<RouteThread, Exchange> running = new ConcurrentHashMap<>();
    /** The mounted handlers' threads running now (they write their own answers): interrupted when the grace ends. */
    private final Set<RouteThread> mountedRunning = ConcurrentHashMap.newKeySet();
    /** Requests Jetty failed under a running route (connection broken, server stopped). */
    private final AtomicLong failed = new AtomicLong();

    RouteDispatch(Map<String, Map<String, JsonRoute>> routes, Map<String, Map<String, JsonRoute>> prefixes,
                  Map<String, Handler> mounts, RequestGate gate, ServerLimits limits, ServerMetrics metrics, ServerLog log,
                  ScheduledExecutorService timer, BooleanSupplier stopping) {
        this.routes = routes;
        this.prefixes = new java.util.TreeMap<>(java.util.Comparator.comparingInt(String::length).reversed()
                .thenComparing(java.util.Comparator.naturalOrder()));
        this.prefixes.putAll(prefixes);
        this.mounts = Map.copyOf(mounts);
        this.mounts.values().forEach(h -> addBean(h, true)); // started and stopped with the server
        this.gate = gate;
        this.limits = limits;
        this.metrics = metrics;
        this.log = log;
        this.timer = timer;
        this.stopping = stopping;
        this.places = new Semaphore(limits.maxConcurrentRequests(), true);
        this.idleMillis = limits.idleTimeout().toMillis();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long started = System.nanoTime();
        String path = Request.getPathInContext(request);
        String method = request.getMethod();
        if (path.equals("/health") || path.equals("/metrics")) {
            builtIn(path, method, new Exchange(response, callback, metrics, path, started, stopping, idleMillis));
            return true;
        }
        for (Map.Entry<String, Handler> m : mounts.entrySet()) {
            if (path.equals(m.getKey()) || path.startsWith(m.getKey() + "/")) {
                return mounted(m.getKey(), m.getValue(), request, response, callback, started);
            }
        }
        String label = path;
        Map<String, JsonRoute> byMethod = routes.get(path);
        if (byMethod == null) {
            for (Map.Entry<String, Map<String, JsonRoute>> p : prefixes.entrySet()) {
                if (path.startsWith(p.getKey()) && path.length() > p.getKey().length()) {
                    byMethod = p.getValue();
                    label = p.getKey() + "*";
                    break;
                }
            }
        }
        Exchange ex = new Exchange(response, callback, metrics, byMethod == null ? "other" : label, started, stopping,
                idleMillis);
        if (byMethod == null) {
            java.util.List<String> known = new java.util.ArrayList<>(routes.keySet());
            prefixes.keySet().forEach(p -> known.add(p + "..."));
            known.addAll(mounts.keySet());
            ex.problem(beforeBody(request, new HttpProblem(404, "not_found", "no endpoint " + abbreviate(path)
                    + "; this server has " + String.join(", ", known) + ", /health and /metrics")));
            return true;
        }
        JsonRoute route = byMethod.get(method);
        if (route == null) {
            ex.problem(beforeBody(request, new HttpProblem(405, "method_not_allowed", "use " + String.join(" or ",
                    byMethod.keySet()) + " for " + abbreviate(path))), Map.of("Allow", String.join(", ", byMethod.keySet())));
            return true;
        }
        RequestGate.Admission admission = admit(request, method, path, ex);
        if (admission == null) {
            return true;
        }
        try (admission) {
            if (!enter(request, ex)) {
                return true;
            }
            try {
                run(route, request, method, path, admission.principal(), ex, started);
            } finally {
                places.release();
            }
        }
        return true;
    }

    /** The gate's admission of the request, or null when it refused it (the refusal answered). */
    private RequestGate.Admission admit(Request request, String method, String path, Exchange ex) {
        try {
            return gate.admit(method, path, name -> request.getHeaders().get(name));
        } catch (HttpProblem p) {
            ex.problem(beforeBody(request, p));
            return null;
        }
    }

    /**
     * A request to a mounted handler: the gate, a place among the concurrent requests (429 after the queue wait), then
     * the handler, whose thread the deadline or the end of the stop's grace interrupts while it runs (a handler that
     * answers later, asynchronously, such as an open event stream, is bound by the idle timeout from then on). The
     * place and the gate's admission are held until the answer is complete.
     */
    private boolean mounted(String mount, Handler handler, Request request, Response response, Callback callback,
                            long started) throws Exception {
        Exchange ex = new Exchange(response, callback, metrics, mount, started, stopping, idleMillis);
        String method = request.getMethod();
        String path = Request.getPathInContext(request);
        RequestGate.Admission admission = admit(request, method, path, ex);
        if (admission == null) {
            return true;
        }
        if (!enter(request, ex)) {
            admission.close();
            return true;
        }
        java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean(true);
        Runnable release = () -> {
            if (held.compareAndSet(true, false)) {
                places.release();
                admission.close();
            }
        };
        RouteThread self = new RouteThread();
        mountedRunning.add(self);
        ScheduledFuture<?> deadline = timer.schedule(() -> {
            log.warn(method + " " + oneLine(path) + ": cancelled at the server's deadline of "
                    + limits.requestDeadline().toMillis() + " ms");
            self.interrupt();
        }, limits.requestDeadline().toNanos(), TimeUnit.NANOSECONDS);
        // a handler that computes is not idle: only the deadline bounds it while it runs
        request.addIdleTimeoutListener(t -> !mountedRunning.contains(self));
        boolean handled = false;
        try {
            handled = handler.handle(request, response, Callback.from(callback, release));
            return handled;
        } finally {
            deadline.cancel(false);
            mountedRunning.remove(self);
            self.leave();
            if (!handled) {
                release.run();
            }
        }
    }

    private void run(JsonRoute route, Request request, String method, String path, String principal, Exchange ex,
                     long started) {
        RouteThread self = new RouteThread();
        running.put(self, ex);
        ScheduledFuture<?> deadline = timer.schedule(() -> {
            HttpProblem late = new HttpProblem(503, "deadline_exceeded", "no answer within the server's deadline of "
                    + limits.requestDeadline().toMillis() + " ms").withHeader("Retry-After", "1");
            if (ex.problem(late)) {
                self.interrupt();
            } else if (ex.streaming()) {
                ex.cancelReason(late); // the stream ends with this as its last event
                self.interrupt();
            }
        }, limits.requestDeadline().toNanos(), TimeUnit.NANOSECONDS);
        // A route that computes is not idle: only our deadline bounds it. Reads and writes keep Jetty's idle timeout.
        request.addIdleTimeoutListener(t -> false);
        // Jetty calls this when the connection fails or the server stops under the request: stop the work.
        request.addFailureListener(t -> {
            if (ex.abandon(t)) {
                failed.incrementAndGet();
                self.interrupt();
            }
        });
        try {
            JsonNode body = null;
            if (hasBody(method)) {
                InputStream in = Request.asInputStream(request);
                byte[] bytes;
                try {
                    bytes = RequestBody.read(request, in, limits.maxBodyBytes());
                } catch (HttpProblem tooLarge) {
                    log.warn(method + " " + oneLine(path) + ": " + tooLarge.status() + " " + oneLine(tooLarge.getMessage()));
                    refuseBody(request, in, ex, tooLarge);
                    return;
                }
                body = RequestBody.parse(bytes);
            }
            JsonReply reply = route.handle(new JsonCall(method, path, body, started, limits,
                    name -> request.getHeaders().get(name), principal, ex));
            if (!ex.endStream(null)) {
                ex.json(reply.status(), reply.body(), reply.headers());
            }
        } catch (HttpProblem p) {
            // The client often shows only the status (aiohttp: "400, message='Bad Request'"): the reason is logged here,
            // before the reply goes out, so the line is in the log by the time the client has its answer.
            if (ex.streaming() || !ex.answered()) {
                log.warn(method + " " + oneLine(path) + ": " + p.status() + " " + oneLine(p.getMessage()));
            }
            fail(ex, p);
        } catch (InterruptedException e) {
            HttpProblem why = ex.cancelReason();
            fail(ex, why != null ? why : STOPPING);
        } catch (UncheckedIOException e) {
            // the body could not be read: the client went away or sent a broken body
            fail(ex, new HttpProblem(400, "bad_body", e.getMessage()));
        } catch (RuntimeException e) {
            if (!ex.answered() || ex.streaming()) {
                log.warn(method + " " + oneLine(path) + ": " + e.getClass().getSimpleName() + ": " + oneLine(e.getMessage()));
            }
            fail(ex, new HttpProblem(500, "internal_error", "the server failed on this request ("
                    + e.getClass().getSimpleName() + "); its log says more"));
        } finally {
            deadline.cancel(false);
            running.remove(self);
            self.leave();
        }
    }

    /**
     * Answers 413 to a body over the limit, then reads and throws away the rest of it (within bounds) so that a client
     * that sends its whole body before reading gets the answer: closing at once would break its pipe.
     */
    private void refuseBody(Request request, InputStream in, Exchange ex, HttpProblem tooLarge) {
        if (!RequestBody.worthDiscarding(request)) {
            ex.problem(tooLarge);
            return;
        }
        ex.problemThen(tooLarge, limits.idleTimeout(), () -> RequestBody.discardRest(in, limits.idleTimeout()));
    }

    /** Answers with the problem, or ends the open stream with it as the last event; false when nothing was sent. */
    private static boolean fail(Exchange ex, HttpProblem p) {
        return ex.streaming() ? ex.endStream(EventStream.errorEvent(p)) : ex.problem(p);
    }

    private boolean enter(Request request, Exchange ex) {
        try {
            if (places.tryAcquire(limits.queueWait().toNanos(), TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ex.problem(beforeBody(request, new HttpProblem(429, "busy", "the server is handling "
                + limits.maxConcurrentRequests() + " requests, its limit: retry in a moment").withHeader("Retry-After", "1")));
        return false;
    }

    /**
     * A problem answered before the request's body is read closes the connection after it ({@code Connection: close}):
     * Jetty closes a connection whose request body was left unread, and a client told nothing would send its next
     * request on it and fail ("header parser received no bytes"). Reading the body instead would let an unauthenticated
     * client make the server read whatever it sends.
     */
    private static HttpProblem beforeBody(Request request, HttpProblem p) {
        boolean body = request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
        return body ? p.withHeader("Connection", "close") : p;
    }

    private void builtIn(String path, String method, Exchange ex) {
        if (!method.equals("GET")) {
            ex.problem(new HttpProblem(405, "method_not_allowed", "use GET for " + path), Map.of("Allow", "GET"));
        } else if (path.equals("/health")) {
            boolean down = stopping.getAsBoolean();
            ex.json(down ? 503 : 200, Json.MAPPER.createObjectNode().put("status", down ? "stopping" : "ok"));
        } else {
            ex.send(200, ServerMetrics.CONTENT_TYPE, metrics.scrape(), Map.of());
        }
    }

    @Override
    public void setServer(org.eclipse.jetty.server.Server server) {
        super.setServer(server);
        mounts.values().forEach(h -> h.setServer(server));
    }

    long failedCount() {
        return failed.get();
    }

    /**
     * The stop's grace period is over: every route still running is answered 503 {@code stopping} with
     * {@code Retry-After} (a stream ends with that as its last event) and interrupted, before Jetty closes its
     * connection. Returns how many were not cancelled before.
     */
    int cancelRunning() {
        int n = 0;
        for (Map.Entry<RouteThread, Exchange> e : running.entrySet()) {
            if (!e.getKey().cancel()) {
                continue;
            }
            n++;
            Exchange ex = e.getValue();
            if (!ex.problem(STOPPING) && ex.streaming()) {
                ex.cancelReason(STOPPING);
            }
            e.getKey().interrupt();
        }
        for (RouteThread t : mountedRunning) {
            if (t.cancel()) {
                n++;
                t.interrupt();
            }
        }
        return n;
    }

    /** The answer to a request the stop cancels: the client may send it again, to this server once restarted. */
    static final HttpProblem STOPPING = new HttpProblem(503, "stopping", "the server is stopping: send the request again")
            .withHeader("Retry-After", "1");

    private static boolean hasBody(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }

    /** A log line stays one line whatever a client put into a message (a forged second line would look like ours). */
    static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("[\\r\\n\\u0085\\u2028\\u2029]+", " ");
    }

    private static String abbreviate(String path) {
        return path.length() <= 80 ? path : path.substring(0, 77) + "...";
    }
}
