package dev.veracity.http;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The Jetty handler behind every {@link JsonServer}: built-in {@code GET /health} and {@code GET /metrics}, then the
 * routes, each request on its own virtual thread (Jetty's {@code VirtualThreadPool}) with the limits applied in this
 * order: route known (404, 405), a place among the concurrent requests (429 after the queue wait), the deadline timer,
 * the body (413, 400), the route. Whatever happens, the client gets one answer or, if it has gone, none.
 */
final class RouteDispatch extends Handler.Abstract {

    private static final Map<String, String> RETRY_AFTER = Map.of("Retry-After", "1");

    private final Map<String, Map<String, JsonRoute>> routes;
    private final ServerLimits limits;
    private final ServerMetrics metrics;
    private final ServerLog log;
    private final ScheduledExecutorService timer;
    private final BooleanSupplier stopping;
    private final Semaphore places;
    /** The threads of the routes running now, interrupted when the server stops. */
    private final Set<RouteThread> running = ConcurrentHashMap.newKeySet();
    /** Requests Jetty failed under a running route (connection broken, server stopped). */
    private final AtomicLong failed = new AtomicLong();

    RouteDispatch(Map<String, Map<String, JsonRoute>> routes, ServerLimits limits, ServerMetrics metrics, ServerLog log,
                  ScheduledExecutorService timer, BooleanSupplier stopping) {
        this.routes = routes;
        this.limits = limits;
        this.metrics = metrics;
        this.log = log;
        this.timer = timer;
        this.stopping = stopping;
        this.places = new Semaphore(limits.maxConcurrentRequests(), true);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        long started = System.nanoTime();
        String path = Request.getPathInContext(request);
        String method = request.getMethod();
        if (path.equals("/health") || path.equals("/metrics")) {
            builtIn(path, method, new Exchange(response, callback, metrics, path, started));
            return true;
        }
        Map<String, JsonRoute> byMethod = routes.get(path);
        Exchange ex = new Exchange(response, callback, metrics, byMethod == null ? "other" : path, started);
        if (byMethod == null) {
            ex.problem(new HttpProblem(404, "not_found", "no endpoint " + abbreviate(path) + "; this server has "
                    + String.join(", ", routes.keySet()) + ", /health and /metrics"));
            return true;
        }
        JsonRoute route = byMethod.get(method);
        if (route == null) {
            ex.problem(new HttpProblem(405, "method_not_allowed", "use " + String.join(" or ", byMethod.keySet())
                    + " for " + path), Map.of("Allow", String.join(", ", byMethod.keySet())));
            return true;
        }
        if (!enter(ex)) {
            return true;
        }
        RouteThread self = new RouteThread();
        running.add(self);
        ScheduledFuture<?> deadline = timer.schedule(() -> {
            if (ex.problem(new HttpProblem(503, "deadline_exceeded", "no answer within the server's deadline of "
                    + limits.requestDeadline().toMillis() + " ms"), RETRY_AFTER)) {
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
            JsonNode body = hasBody(method) ? RequestBody.readJson(request, limits.maxBodyBytes()) : null;
            JsonReply reply = route.handle(new JsonCall(method, path, body, started, limits,
                    name -> request.getHeaders().get(name)));
            ex.json(reply.status(), reply.body());
        } catch (HttpProblem p) {
            // The client often shows only the status (aiohttp: "400, message='Bad Request'"): the reason is logged here.
            if (ex.problem(p)) {
                log.warn(method + " " + path + ": " + p.status() + " " + p.getMessage());
            }
        } catch (InterruptedException e) {
            ex.problem(new HttpProblem(503, "cancelled", "the server is stopping: send the request again"), RETRY_AFTER);
        } catch (UncheckedIOException e) {
            // the body could not be read: the client went away or sent a broken body
            ex.problem(new HttpProblem(400, "bad_body", e.getMessage()));
        } catch (RuntimeException e) {
            if (!ex.answered()) {
                log.warn(method + " " + path + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            ex.problem(new HttpProblem(500, "internal_error", "the server failed on this request ("
                    + e.getClass().getSimpleName() + "); its log says more"));
        } finally {
            deadline.cancel(false);
            running.remove(self);
            self.leave();
            places.release();
        }
        return true;
    }

    private boolean enter(Exchange ex) {
        try {
            if (places.tryAcquire(limits.queueWait().toNanos(), TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ex.problem(new HttpProblem(429, "busy", "the server is handling " + limits.maxConcurrentRequests()
                + " requests, its limit: retry in a moment"), RETRY_AFTER);
        return false;
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

    long failedCount() {
        return failed.get();
    }

    /** Interrupts every route still running (the server's grace period is over). */
    int interruptRunning() {
        running.forEach(RouteThread::interrupt);
        return running.size();
    }

    private static boolean hasBody(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }

    private static String abbreviate(String path) {
        return path.length() <= 80 ? path : path.substring(0, 77) + "...";
    }
}
