package dev.veracity.sim;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A running simulator: an HTTP server on 127.0.0.1 answering the OpenAI API (see the package
 * documentation). Start with {@link #start(SimConfig)}, point a client at {@link #baseUrl()}, and
 * {@link #close()} when done; closing also ends requests still queued, generating or hanging.
 *
 * <pre>{@code
 * try (SimServer sim = SimServer.start(SimConfig.builder()
 *         .rules(Rule.of("capital of France", "Paris."))
 *         .build())) {
 *     client.baseUrl(sim.baseUrl()) ...
 * }
 * }</pre>
 */
public final class SimServer implements AutoCloseable {

    static {
        // Without TCP_NODELAY, Nagle's algorithm plus the client's delayed ACK adds ~40 ms to a
        // keep-alive request. The JDK server reads this once, when its first instance is created
        // in the JVM, so an explicit setting (or an earlier server) wins.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    /** How long {@link #close()} waits for handlers still running once they were told to stop. */
    static final long CLOSE_GRACE_MILLIS = 300;

    private final SimConfig config;
    private final HttpServer http;
    private final ExecutorService executor;
    private final SimCounters counters = new SimCounters();
    private final RequestLog<RecordedRequest> log;
    private final RequestLog<String> unrecognised;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final int port;
    private final ArealGateway areal;

    private SimServer(SimConfig config) throws IOException {
        this.config = config;
        this.log = new RequestLog<>(config.recentRequestLimit());
        this.unrecognised = new RequestLog<>(config.recentRequestLimit());
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByAddress(new byte[]{127, 0, 0, 1}), config.port());
        this.http = HttpServer.create(address, 1024);
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        // Every exchange runs on its own virtual thread: the server's single dispatcher thread only accepts and
        // reads headers, so one slow request (a huge prompt against a costly rule) never holds up the others, and
        // stopping the server (which joins the dispatcher) never waits for a handler.
        http.setExecutor(executor);
        this.areal = config.arealAdminKey().map(k -> new ArealGateway(k, config.seed())).orElse(null);
        http.createContext("/", new SimHandler(config, counters, log, unrecognised, closing, areal));
        http.start();
        this.port = http.getAddress().getPort();
    }

    /**
     * Starts a simulator.
     *
     * @throws UncheckedIOException if it cannot listen on {@code 127.0.0.1:port} (e.g. the port is taken)
     */
    public static SimServer start(SimConfig config) {
        try {
            return new SimServer(config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + config.port() + ": " + e.getMessage(), e);
        }
    }

    /** Starts a simulator with {@link SimConfig#defaults()}. */
    public static SimServer start() {
        return start(SimConfig.defaults());
    }

    /** The OpenAI base URL, e.g. {@code http://127.0.0.1:43127/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    public int port() {
        return port;
    }

    public SimConfig config() {
        return config;
    }

    public SimCounters counters() {
        return counters;
    }

    /** The most recent requests (up to {@link SimConfig#recentRequestLimit()}), oldest first. */
    public List<RecordedRequest> recentRequests() {
        return log.snapshot();
    }

    /** The recent requests that asked for text (POSTs: chat and text completions), without model listings. */
    public List<RecordedRequest> recentGenerations() {
        return log.snapshot().stream().filter(r -> r.method().equals("POST")).toList();
    }

    /**
     * The sessions of the AReaL gateway ({@link SimConfig.Builder#areal}), in start order, each with its interactions
     * and the rewards set on them; empty when the gateway is not served.
     */
    public List<ArealSession> arealSessions() {
        return areal == null ? List.of() : areal.sessions();
    }

    /** The AReaL gateway's root, {@code http://127.0.0.1:<port>} (it serves {@code /chat/completions} without {@code /v1}). */
    public String arealUrl() {
        return "http://127.0.0.1:" + port();
    }

    /**
     * The last prompts (up to {@link SimConfig#recentRequestLimit()}) that went to the built-in reader and that no
     * {@link dev.veracity.sim.reader.PromptReader} recognised, oldest first: they got the rule set's default answer.
     * A method whose prompts show up here has no reader ({@link SimCounters#unrecognisedPrompts()} counts them all).
     */
    public List<String> unrecognisedPrompts() {
        return unrecognised.snapshot();
    }

    /** Forgets the recent requests and the recent unrecognised prompts. */
    public void clearRecentRequests() {
        log.clear();
        unrecognised.clear();
    }

    /**
     * Stops listening, drops open connections and ends every request in progress (queued, generating
     * or hanging requests get no answer). Returns within about half a second even while a handler is busy
     * computing (its virtual thread is abandoned, not waited for). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing.countDown(); // wakes requests sleeping in latency or a hang
        http.stop(0);
        executor.shutdownNow(); // interrupts requests waiting for a slot
        try {
            executor.awaitTermination(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "SimServer[" + baseUrl() + (closed.get() ? ", closed" : "") + "]";
    }
}
