package dev.veracity.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.veracity.sim.reader.ExtractiveReader;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Serves every request of a {@link SimServer}, each on its own virtual thread: route, record,
 * authorize, validate, draw a fault, generate, wait for capacity and latency, answer.
 */
final class SimHandler implements HttpHandler {

    /** Ends a request with no response at all: the connection is closed. */
    private static final class Abort extends RuntimeException {
        Abort() {
            super(null, null, false, false);
        }
    }

    private static final Abort ABORT = new Abort();

    private final SimConfig config;
    private final SimCounters counters;
    private final RequestLog<RecordedRequest> log;
    private final RequestLog<String> unrecognised;
    private final ExtractiveReader reader;
    private final CountDownLatch closed;
    private final Semaphore slots;
    private final AtomicLong requestSeq = new AtomicLong();
    private final AtomicLong faultSeq = new AtomicLong();
    private final long startedEpochSecond;
    private final String expectedAuthorization;
    private final String retryAfterSeconds;
    private final String retryAfterMillis;
    private final ArealGateway areal;

    SimHandler(SimConfig config, SimCounters counters, RequestLog<RecordedRequest> log, RequestLog<String> unrecognised,
               CountDownLatch closed, ArealGateway areal) {
        this.config = config;
        this.counters = counters;
        this.log = log;
        this.unrecognised = unrecognised;
        this.reader = config.reader() ? new ExtractiveReader(config.readers()) : null;
        this.closed = closed;
        // Fair, so queued requests are served first come, first served, like a real server's queue.
        this.slots = new Semaphore(config.capacity(), true);
        this.startedEpochSecond = config.clock().epochSecond();
        this.expectedAuthorization = config.requiredApiKey().map(k -> "Bearer " + k).orElse(null);
        long ms = config.retryAfter().toMillis();
        this.retryAfterSeconds = Long.toString((ms + 999) / 1000);
        this.retryAfterMillis = Long.toString(ms);
        this.areal = areal;
    }

    /** Runs on the exchange's own virtual thread (the server's executor). */
    @Override
    public void handle(HttpExchange ex) {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath(); // decoded: model ids may be escaped
        Endpoint endpoint = Endpoint.forPath(path);
        long arrived = config.clock().nanoTime();
        long seq = requestSeq.getAndIncrement();
        counters.arrived(endpoint);
        try {
            if (endpoint == null || (endpoint.areal() && areal == null)) {
                throw new ApiError(404, "Invalid URL (" + method + " " + path + ")", "invalid_request_error", null, null);
            }
            if (!endpoint.method().equals(method)) {
                ex.getResponseHeaders().set("Allow", endpoint.method());
                throw new ApiError(405, "Method " + method + " not allowed for " + path + "; use " + endpoint.method() + ".",
                        "invalid_request_error", null, "method_not_allowed");
            }
            JsonNode body = MissingNode.getInstance();
            String bodyProblem = null;
            if (endpoint.method().equals("POST")) {
                byte[] bytes = readBody(ex);
                if (bytes.length == 0) {
                    bodyProblem = "the request body is empty";
                } else {
                    try {
                        body = Json.MAPPER.readTree(bytes);
                    } catch (JsonProcessingException e) {
                        bodyProblem = e.getOriginalMessage();
                    }
                }
            }
            if (log.enabled()) {
                log.add(new RecordedRequest(seq, method, path, headersWithoutAuthorization(ex.getRequestHeaders()), body));
            }
            if (endpoint.areal()) {
                serveAreal(ex, endpoint, bodyProblem == null ? body : null, seq, arrived);
                return;
            }
            authorize(ex.getRequestHeaders());
            if (bodyProblem != null) {
                throw ApiError.invalid("We could not parse the JSON body of your request: " + bodyProblem, null);
            }
            if (endpoint == Endpoint.MODELS) {
                serveModels(ex, path);
            } else if (endpoint == Endpoint.EMBEDDINGS) {
                byte[] json = Embeddings.respond(body, config);
                send(ex, 200, drawFault() == FaultKind.MALFORMED_JSON ? Arrays.copyOf(json, json.length / 2) : json);
            } else {
                generate(ex, endpoint, body, seq, arrived);
            }
        } catch (ApiError e) {
            if (e.status == 413) {
                ex.getResponseHeaders().set("Connection", "close"); // the rest of the body is not read
            }
            if (e.status == 429 || "queue_full".equals(e.code)) { // a full queue's 503 says when to come back too
                ex.getResponseHeaders().set("Retry-After", retryAfterSeconds);
                ex.getResponseHeaders().set("retry-after-ms", retryAfterMillis);
            }
            send(ex, e.status, OpenAiJson.error(e));
        } catch (Abort a) {
            // Close below, before any response: the client sees the connection drop.
        } catch (IOException e) {
            // The client went away; nothing to answer.
        } catch (RuntimeException e) {
            // A scripted responder threw, or a bug: answer like a server with a crashed worker.
            send(ex, 500, OpenAiJson.error(new ApiError(500, "Simulator failure: " + e, "server_error", null, null)));
        } finally {
            leave(ex);
            left.remove(ex);
            ex.close();
        }
    }

    /**
     * Counts the request out of flight, once: before its answer is written (a client may send its next request
     * as soon as it has read the answer, and must not find this one still counted), or on the way out.
     */
    private void leave(HttpExchange ex) {
        // Exchange attributes are shared by the whole context, so remember per exchange here (identity).
        if (left.add(ex)) {
            counters.left();
        }
    }

    private final java.util.Set<HttpExchange> left = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The request body, or 413 when it is larger than {@link SimConfig#maxRequestBytes()} (read no further). */
    private byte[] readBody(HttpExchange ex) throws IOException {
        long cap = Math.min(config.maxRequestBytes(), Integer.MAX_VALUE - 16);
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        long length = -1;
        if (declared != null) {
            try {
                length = Long.parseLong(declared.strip());
            } catch (NumberFormatException e) {
                // The server itself rejects a malformed length; read as usual.
            }
            if (length > cap) {
                throw tooLarge(cap);
            }
        }
        // A declared length is read exactly: reading up to the cap allocates 16 KB chunks for every small body.
        byte[] bytes = ex.getRequestBody().readNBytes(length >= 0 ? (int) length : (int) cap + 1);
        if (bytes.length > cap) {
            throw tooLarge(cap);
        }
        return bytes;
    }

    private static ApiError tooLarge(long cap) {
        return new ApiError(413, "Request body too large: the limit is " + cap + " bytes.", "invalid_request_error",
                null, "request_too_large");
    }

    private void authorize(Headers headers) {
        if (expectedAuthorization == null) {
            return;
        }
        String given = headers.getFirst("Authorization");
        if (given == null || given.isBlank()) {
            throw new ApiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization"
                    + " header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "invalid_request_error", null, null);
        }
        if (!given.equals(expectedAuthorization)) {
            throw new ApiError(401, "Incorrect API key provided.", "invalid_request_error", null, "invalid_api_key");
        }
    }

    private void serveModels(HttpExchange ex, String path) {
        if (path.equals(Endpoint.MODELS.path())) {
            send(ex, 200, OpenAiJson.models(config.models(), startedEpochSecond));
            return;
        }
        String id = path.substring(Endpoint.MODELS.path().length() + 1);
        if (!config.models().contains(id)) {
            throw ApiError.modelNotFound(id);
        }
        send(ex, 200, OpenAiJson.model(id, startedEpochSecond));
    }

    /**
     * AReaL's gateway ({@link ArealGateway}): its own keys (never {@link SimConfig#requiredApiKey()}); a chat
     * completion is an ordinary one, recorded under its response id before it is answered.
     */
    private void serveAreal(HttpExchange ex, Endpoint endpoint, JsonNode body, long seq, long arrived)
            throws IOException {
        Headers h = ex.getRequestHeaders();
        ArealGateway.Reply reply = switch (endpoint) {
            case AREAL_START_SESSION -> areal.startSession(h, body);
            case AREAL_SET_REWARD -> areal.setReward(h, body);
            case AREAL_END_SESSION -> areal.endSession(h);
            default -> null;
        };
        if (reply == null && body == null) {
            reply = ArealGateway.detail(422, "the body is not a JSON object");
        } else if (reply == null) {
            String id = responseId(Endpoint.CHAT_COMPLETIONS, seq);
            reply = areal.openInteraction(h, body, id,
                    GenerationRequest.parse(Endpoint.CHAT_COMPLETIONS, body, config).prompts().getFirst());
            if (reply == null) {
                String answer = null;
                try {
                    answer = generate(ex, Endpoint.CHAT_COMPLETIONS, body, seq, arrived).choices().getFirst().text();
                } finally {
                    areal.closeInteraction(id, answer);
                }
                return;
            }
        }
        send(ex, reply.status(), reply.body());
    }

    private String responseId(Endpoint endpoint, long seq) {
        return (endpoint == Endpoint.CHAT_COMPLETIONS ? "chatcmpl-sim-" : "cmpl-sim-")
                + Long.toHexString(Mix.mix(startedEpochSecond, seq));
    }

    /** The next fault of the plan, counted; 429, 500 and reset are thrown here, a hang waits here. */
    private FaultKind drawFault() {
        FaultKind fault = config.faults().isNone() ? FaultKind.NONE
                : config.faults().choose(faultSeq.getAndIncrement(), config.seed());
        counters.fault(fault);
        switch (fault) {
            case RATE_LIMIT -> throw new ApiError(429, "Rate limit reached for requests (simulated). Please try again later.",
                    "requests", null, "rate_limit_exceeded");
            case SERVER_ERROR -> throw new ApiError(500, "The server had an error while processing your request. Sorry about that! (simulated)",
                    "server_error", null, null);
            case RESET -> throw ABORT;
            case HANG -> pause(config.faults().hangDuration());
            default -> {
            }
        }
        return fault;
    }

    /** The built-in reader's answer to a prompt no rule matched, or null; counts which reader answered, or none. */
    private String read(String prompt) {
        Optional<ExtractiveReader.Read> read = reader.read(prompt);
        if (read.isEmpty()) {
            counters.unrecognised();
            if (unrecognised.enabled()) {
                unrecognised.add(prompt);
            }
            return null;
        }
        counters.recognised(read.get().reader());
        return read.get().text();
    }

    /**
     * Generates and answers; returns what was generated. The time since the request {@code arrived} (reading, parsing,
     * generating: this server's own work) is part of the latency model's times, as a real server's prefill is part of
     * its time to first token; it is not added to them (on a machine the simulator shares with its client, it would
     * be the client's CPU time charged twice). A hang or a wait for a slot is not this work and still adds.
     */
    private Generator.Generation generate(HttpExchange ex, Endpoint endpoint, JsonNode body, long seq, long arrived)
            throws IOException {
        GenerationRequest req = GenerationRequest.parse(endpoint, body, config);
        long worked = config.clock().nanoTime() - arrived;
        FaultKind fault = drawFault();

        long generating = config.clock().nanoTime();
        Generator.Generation gen = Generator.generate(req, config.rules(), fault, reader == null ? null : this::read);
        String id = responseId(endpoint, seq);
        LatencyModel latency = config.latency().forGeneration(Mix.unit(Mix.mix(config.seed(), seq, 0x1a7e)));
        worked += config.clock().nanoTime() - generating;
        try (Slot slot = acquireSlot()) {
            if (req.stream()) {
                stream(ex, req, gen, id, fault, slot, latency, worked);
                return gen;
            }
            pause(latency.serviceTime(gen.maxChoiceTokens()).minusNanos(worked));
        }

        long created = config.clock().epochSecond();
        byte[] json = endpoint == Endpoint.CHAT_COMPLETIONS
                ? OpenAiJson.chat(id, created, req, gen)
                : OpenAiJson.completion(id, created, req, gen);
        if (fault == FaultKind.MALFORMED_JSON) {
            json = Arrays.copyOf(json, json.length / 2); // an unterminated object: no JSON parser accepts it
        }
        send(ex, 200, json);
        return gen;
    }

    /**
     * Answers with server-sent events once the slot is held, so that faults and a full queue before it still get
     * the HTTP errors a non-streamed request gets. The slot is given back before the last bytes, as a
     * non-streamed answer's is.
     */
    private void stream(HttpExchange ex, GenerationRequest req, Generator.Generation gen, String id, FaultKind fault,
                        Slot slot, LatencyModel latency, long worked) throws IOException {
        long started = config.clock().nanoTime() - worked; // the work before it is inside its times (generate)
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0); // chunked: each event goes out when it is made
        ex.getResponseBody().flush(); // the headers now, as a real server sends them, not with the first token
        long created = config.clock().epochSecond();
        new EventStream(ex.getResponseBody(), id, created, req, gen, fault == FaultKind.MALFORMED_JSON)
                .send(latency, elapsed -> pause(elapsed.minusNanos(config.clock().nanoTime() - started)), () -> {
                    slot.close();
                    leave(ex);
                });
    }

    /** A held generation slot; given back once, when the answer is out or on the way out, whichever comes first. */
    private final class Slot implements AutoCloseable {
        private boolean held = true;

        Slot() {
            counters.startedGenerating();
        }

        @Override
        public void close() {
            if (held) {
                held = false;
                counters.stoppedGenerating();
                slots.release();
            }
        }
    }

    /** Waits for a generation slot, or answers 429 (or 503) when {@code maxQueue} requests already wait. */
    private Slot acquireSlot() {
        try {
            // The timed form honours fairness (the untimed tryAcquire would barge past the queue).
            if (slots.tryAcquire(0, TimeUnit.NANOSECONDS)) {
                return new Slot();
            }
            int queued = counters.enqueued();
            try {
                if (config.maxQueue().isPresent() && queued > config.maxQueue().getAsInt()) {
                    counters.queueRejected();
                    int status = config.queueFullStatus();
                    throw new ApiError(status, "The server is overloaded: " + config.maxQueue().getAsInt()
                            + " requests are already waiting (simulated). Please try again later.",
                            status == 429 ? "requests" : "server_error", null, "queue_full");
                }
                slots.acquire();
            } finally {
                counters.dequeued();
            }
            return new Slot();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ABORT; // the server is closing
        }
    }

    /**
     * Sleeps on the configured clock, unless the server closes first: then the request is aborted. Zero or negative:
     * no wait.
     */
    private void pause(Duration d) {
        if (d.isZero() || d.isNegative()) {
            return;
        }
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE; // "forever" as a Duration of centuries
        }
        try {
            if (config.clock().await(nanos, closed)) {
                throw ABORT;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ABORT;
        }
    }

    private static Map<String, List<String>> headersWithoutAuthorization(Headers headers) {
        Map<String, List<String>> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (!e.getKey().equalsIgnoreCase("Authorization")) {
                out.put(e.getKey(), List.copyOf(e.getValue()));
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private void send(HttpExchange ex, int status, byte[] body) {
        leave(ex);
        try {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } catch (IOException e) {
            // The client went away mid-answer; nothing more to do.
        }
    }
}
