package dev.veracity.http;

import java.io.IOException;
import java.net.BindException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * A JSON HTTP server on Jetty 12 with one virtual thread per request, the plumbing every Veracity server shares:
 * routes ({@link JsonRoute}), {@link ServerLimits} (body, batch, concurrency, deadline, idle, stop grace), errors in one
 * JSON shape ({@link ErrorBody}, also for what Jetty itself refuses, such as a malformed request line),
 * {@code GET /health}, {@code GET /metrics} ({@link ServerMetrics}), a {@link RequestGate} before the body is read
 * (authentication, per-client limits), answers as server-sent events ({@link EventStream}), and a graceful stop.
 * <pre>{@code
 * try (JsonServer s = JsonServer.builder().port(0)
 *         .route("POST", "/v1/echo", call -> JsonReply.ok(call.body())).start()) {
 *     s.baseUrl();   // http://127.0.0.1:PORT
 * }
 * }</pre>
 * <p>{@link #close()} stops accepting at once (the port is free when it returns), lets the requests in flight finish
 * for {@link ServerLimits#stopGrace()}, then answers the requests still running 503 {@code stopping} with
 * {@code Retry-After: 1}, interrupts their routes and closes their connections.
 * <p>A route's thread is interrupted when its answer is no longer wanted: its deadline passed (the client got 503),
 * Jetty failed the request (the connection broke, the server stopped), or the grace period ended. Over HTTP/1.1 Jetty
 * does not read a connection while a route runs (it would have to buffer pipelined requests), so a client that
 * closes its connection mid-request is noticed when the answer is written, not before: the deadline bounds that work.
 */
public final class JsonServer implements AutoCloseable {

    /** After the grace period, how long the cancelled requests' 503 answers may take to be sent before Jetty closes. */
    private static final Duration CANCEL_MARGIN = Duration.ofSeconds(1);

    private final Server jetty;
    private final ServerConnector connector;
    private final RouteDispatch dispatch;
    private final ScheduledThreadPoolExecutor timer;
    private final ServerMetrics metrics;
    private final ServerLog log;
    private final ServerLimits limits;
    private final String host;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private JsonServer(Builder b) throws IOException {
        this.metrics = b.metrics;
        this.log = b.log;
        this.limits = b.limits;
        this.host = b.host;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, b.name + "-deadlines");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        VirtualThreadPool pool = new VirtualThreadPool();
        pool.setName(b.name);
        // Jetty's own cap on tasks (selector, acceptor and requests): above our limit, so that ours answers with 429.
        pool.setMaxConcurrentTasks(2 * limits.maxConcurrentRequests() + 64);
        jetty = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(b.port);
        connector.setIdleTimeout(limits.idleTimeout().toMillis());
        // The JDK's default accept backlog is 50: 64 trainers connecting at once had SYNs dropped and retried after
        // 1 s (measured: a 1.05 s maximum in bench rewards). The kernel caps this at net.core.somaxconn.
        connector.setAcceptQueueSize(1024);
        jetty.addConnector(connector);
        dispatch = new RouteDispatch(Map.copyOf(b.routes), Map.copyOf(b.prefixes), Map.copyOf(b.mounts), b.gate, limits, metrics, log, timer,
                stopping::get);
        jetty.setHandler(new StoppingGracefully(dispatch));
        jetty.setErrorHandler(new JsonErrors());
        // Jetty fails the requests still in flight when its stop timeout ends (a 500, or a closed connection); ours
        // answers them 503 "stopping" at the end of the grace, and Jetty's timeout is only the backstop.
        jetty.setStopTimeout(limits.stopGrace().plus(CANCEL_MARGIN).toMillis());
        jetty.setStopAtShutdown(false); // the command's own hook calls close(), once
        try {
            jetty.start();
        } catch (IOException e) {
            stopQuietly();
            Throwable bind = e instanceof BindException ? e : e.getCause() instanceof BindException c ? c : null;
            if (bind != null) {
                throw new BindException(host + ":" + b.port + ": " + bind.getMessage());
            }
            throw e;
        } catch (Exception e) {
            stopQuietly();
            throw new IOException("the HTTP server did not start: " + e.getMessage(), e);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The port listened on (the one picked when 0 was asked). */
    public int port() {
        return connector.getLocalPort();
    }

    /** {@code http://HOST:PORT}, without a trailing slash. */
    public String baseUrl() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + h + ":" + port();
    }

    public ServerMetrics metrics() {
        return metrics;
    }

    public ServerLimits limits() {
        return limits;
    }

    /** Whether {@link #close()} has begun. */
    public boolean isStopping() {
        return stopping.get();
    }

    /** Waits until the server has stopped (from another thread's {@link #close()}, e.g. a shutdown hook). */
    public void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    /**
     * Stops: no new connection or request from now (the port is released first), the requests in flight get
     * {@link ServerLimits#stopGrace()} to finish, then those still running are answered 503 {@code stopping} (a
     * stream ends with that error event), their routes interrupted and their connections closed. Returns when that is
     * done; a second call waits for the first.
     */
    @Override
    public void close() {
        if (!stopping.compareAndSet(false, true)) {
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        long t0 = System.nanoTime();
        long failedBefore = dispatch.failedCount();
        AtomicInteger cancelled = new AtomicInteger();
        ScheduledFuture<?> graceEnd = timer.schedule(() -> cancelled.addAndGet(dispatch.cancelRunning()),
                limits.stopGrace().toNanos(), TimeUnit.NANOSECONDS);
        try {
            jetty.stop(); // graceful: connectors close, in-flight requests get the grace, then 503 (graceEnd)
        } catch (java.util.concurrent.TimeoutException e) {
            // the grace period ended with requests still running: they are cancelled below and counted in the log
        } catch (Exception e) {
            log.warn("the HTTP server did not stop cleanly: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } finally {
            graceEnd.cancel(false);
            long cut = cancelled.get() + dispatch.cancelRunning() + dispatch.failedCount() - failedBefore;
            timer.shutdownNow();
            log.info(String.format(Locale.ROOT, "stopped in %d ms%s", (System.nanoTime() - t0) / 1_000_000,
                    cut == 0 ? "" : cut == 1 ? "; 1 request still running was cancelled"
                            : "; " + cut + " requests still running were cancelled"));
            stopped.countDown();
        }
    }

    private void stopQuietly() {
        try {
            jetty.stop();
        } catch (Exception ignored) {
            // the start failed; that failure is the one reported
        }
        timer.shutdownNow();
        stopped.countDown();
    }

    /** The routes and settings of a server. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private String name = "veracity-http";
        private ServerLimits limits = ServerLimits.defaults();
        private ServerLog log = ServerLog.none();
        private ServerMetrics metrics = new ServerMetrics();
        private final Map<String, Map<String, JsonRoute>> routes = new LinkedHashMap<>();
        private final Map<String, Map<String, JsonRoute>> prefixes = new LinkedHashMap<>();
        private final Map<String, Handler> mounts = new LinkedHashMap<>();
        private RequestGate gate = RequestGate.OPEN;

        private Builder() {
        }

        /** The address to listen on: 127.0.0.1 (the default) for this machine only, 0.0.0.0 for every interface. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("a port is from 0 to 65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** The name of the server's threads. */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        public Builder limits(ServerLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        public Builder log(ServerLog log) {
            this.log = Objects.requireNonNull(log, "log");
            return this;
        }

        /** The metrics to serve, with the application's own registered on them. */
        public Builder metrics(ServerMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /** Adds {@code METHOD path}; {@code /health} and {@code /metrics} are the server's own. */
        public Builder route(String method, String path, JsonRoute route) {
            Objects.requireNonNull(route, "route");
            String m = method.toUpperCase(Locale.ROOT);
            if (!path.startsWith("/") || path.equals("/health") || path.equals("/metrics")) {
                throw new IllegalArgumentException("a route path starts with / and is not /health or /metrics: " + path);
            }
            if (routes.computeIfAbsent(path, p -> new LinkedHashMap<>()).putIfAbsent(m, route) != null) {
                throw new IllegalArgumentException("two routes for " + m + " " + path);
            }
            return this;
        }

        /**
         * Adds {@code METHOD prefix...}: every path that starts with {@code prefix} (ending in {@code /}) and goes on,
         * unless an exact route takes it; the route reads the rest from {@link JsonCall#path()}. Its metrics label is
         * {@code prefix*}, whatever the rest.
         */
        public Builder routePrefix(String method, String prefix, JsonRoute route) {
            Objects.requireNonNull(route, "route");
            if (!prefix.startsWith("/") || !prefix.endsWith("/")) {
                throw new IllegalArgumentException("a route prefix starts and ends with /: " + prefix);
            }
            String m = method.toUpperCase(Locale.ROOT);
            if (prefixes.computeIfAbsent(prefix, p -> new LinkedHashMap<>()).putIfAbsent(m, route) != null) {
                throw new IllegalArgumentException("two routes for " + m + " " + prefix + "...");
            }
            return this;
        }

        /**
         * Mounts a Jetty handler (a servlet context, say) at {@code path} and every path below it
         * ({@code path/...}), before the routes: its requests pass the gate and take one of the concurrent places (429
         * after the queue wait) as routes do, its thread is interrupted at the deadline and at the end of the stop's
         * grace while it handles the request, and it answers by itself. It is started and stopped with the server.
         */
        public Builder mount(String path, Handler handler) {
            Objects.requireNonNull(handler, "handler");
            if (!path.startsWith("/") || path.endsWith("/") || path.equals("/health") || path.equals("/metrics")) {
                throw new IllegalArgumentException("a mount path starts with /, does not end with / and is not"
                        + " /health or /metrics: " + path);
            }
            if (mounts.putIfAbsent(path, handler) != null) {
                throw new IllegalArgumentException("two handlers mounted at " + path);
            }
            return this;
        }

        /** What decides, before the body is read, whether a request may reach its route (default: every one may). */
        public Builder gate(RequestGate gate) {
            this.gate = Objects.requireNonNull(gate, "gate");
            return this;
        }

        /** Starts listening; {@link BindException} when the port is taken. */
        public JsonServer start() throws IOException {
            return new JsonServer(this);
        }
    }

    /** Jetty's graceful handler, refusing requests during the stop with our JSON 503. */
    private static final class StoppingGracefully extends GracefulHandler {
        StoppingGracefully(RouteDispatch dispatch) {
            super(dispatch);
            // Idle keep-alive connections are closed this soon once the stop begins (Jetty's default waits 1 s).
            setShutdownIdleTimeout(100);
        }

        @Override
        protected void handleShutdownRejection(Request request, Response response, Callback callback) {
            writeJsonError(response, callback, 503, "stopping", "the server is stopping: send the request again");
        }
    }

    /** What Jetty answers by itself (a malformed request line, a header too large) in the same JSON shape. */
    private static final class JsonErrors extends ErrorHandler {
        @Override
        protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                        Callback callback) {
            if (code >= 500) {
                // Jetty failed the request itself (the server stopping under it, a broken connection): its message
                // names internal classes, which a client cannot act on
                writeJsonError(response, callback, code, "request_failed",
                        "the request failed inside the server (stopping, or the connection broke): send it again");
                return;
            }
            String reason = message == null || message.isBlank() ? "the request could not be read as HTTP" : message;
            writeJsonError(response, callback, code, code == 413 || code == 431 ? "too_large" : "bad_http", reason);
        }
    }

    private static void writeJsonError(Response response, Callback callback, int status, String code, String reason) {
        byte[] body;
        try {
            body = Json.MAPPER.writeValueAsBytes(ErrorBody.of(status, code, reason));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            body = "{}".getBytes(StandardCharsets.UTF_8);
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
