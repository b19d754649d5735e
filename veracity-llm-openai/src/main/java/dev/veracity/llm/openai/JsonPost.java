package dev.veracity.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.concurrent.JsonBuffers;
import dev.veracity.config.ApiKey;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One JSON POST to an OpenAI-compatible server, on the JDK's {@link HttpClient}: the body in, the answer's bytes out,
 * or a typed {@link LlmException} (the HTTP status and the server's own message, Retry-After, timeout, connection,
 * cancellation). The whole exchange, body included, is bounded by the call's timeout; a caller interrupted while
 * waiting cancels the exchange (its connection is closed, so the server sees the client go).
 *
 * <p>Why the JDK's client and not OkHttp (openai-java's) or Apache HttpClient: under bursts of calls its tail is
 * shorter. The blocking clients read each socket on its own virtual thread, and OkHttp 4 also wakes its pool's cleaner
 * thread after every call to scan every pooled connection; this client reads all sockets from one selector thread.
 * Under {@code bench serve}, {@code madam-rag}'s p99 overhead was 5.1 to 6.0 ms on OkHttp, 5.4 ms on Apache HttpClient
 * 5 and 2.3 to 3.9 ms on this client, with the same protocol code. The price is a hand-off between threads per call: a lone call at zero latency takes about 0.3 ms instead of
 * 0.17 ms, nothing beside a model's tens of milliseconds.
 *
 * <p>HTTP/1.1 with kept-alive connections for {@code http://} (what model servers speak; no h2c upgrade), HTTP/2 where
 * TLS offers it. The JDK pools connections per host and watches idle ones, so a server that closes an idle connection
 * (uvicorn after 5 s) costs a new connection, not a failed call, unless the close crosses our request on the wire:
 * that is a {@code CONNECTION} error, which the client retries and counts.
 *
 * <p>No key is sent when none is configured (a local server needs none); the key never appears in a message.
 */
final class JsonPost implements AutoCloseable {

    /** Headers the JDK sets itself and refuses from callers (it throws on them). */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    /** The most of an error body quoted in a message. */
    private static final int QUOTED = 500;

    private static final ObjectMapper JSON = JsonBuffers.mapper();

    private final ExecutorService executor;
    private final HttpClient http;
    private final String baseUrl;
    private final HttpClient.Version version;
    private final Map<String, String> headers;

    JsonPost(String baseUrl, ApiKey apiKey, Map<String, String> extraHeaders, Duration connectTimeout) {
        this.baseUrl = baseUrl;
        this.version = baseUrl.regionMatches(true, 0, "https:", 0, 6) ? HttpClient.Version.HTTP_2
                : HttpClient.Version.HTTP_1_1;
        // The client's own work (reading answers, completing exchanges) on virtual threads: its default executor, a
        // cached pool of platform threads, grew by a thread per call in flight.
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        // The JVM's proxy settings (https.proxyHost, ...) apply, as they did under OkHttp; loopback is never proxied.
        ProxySelector proxies = ProxySelector.getDefault();
        HttpClient.Builder client = HttpClient.newBuilder().version(version).connectTimeout(connectTimeout).executor(executor);
        if (version == HttpClient.Version.HTTP_1_1) {
            // plain http: no TLS to set up (the JDK's default context reads the whole trust store at the first client)
            client.sslContext(PlainHttp.noTls());
        }
        this.http = (proxies == null ? client : client.proxy(proxies)).build();
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        h.put("Accept", "application/json");
        h.put("User-Agent", "veracity");
        if (apiKey != null) {
            h.put("Authorization", "Bearer " + apiKey.reveal());
        }
        extraHeaders.forEach((name, value) -> h.put(checkHeader(name), value));
        this.headers = Map.copyOf(h);
    }

    /** Refuses, when the backend is built, a header the JDK would refuse on every call. */
    static String checkHeader(String name) {
        if (name == null || name.isBlank() || RESTRICTED.contains(name.strip().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("the header '" + name + "' cannot be set on requests to the model "
                    + "server (the HTTP client sets it itself); remove it");
        }
        return name.strip();
    }

    String baseUrl() {
        return baseUrl;
    }

    /** Whether the HTTP client and its threads are gone (after {@link #close()}). */
    boolean terminated() {
        return http.isTerminated();
    }

    /** The TLS context of this client's connections: the JDK's default for https, {@link PlainHttp#noTls()} for http. */
    javax.net.ssl.SSLContext sslContext() {
        return http.sslContext();
    }

    /** POSTs {@code body} to {@code baseUrl + path}; the 2xx answer's bytes, or a typed failure. */
    byte[] post(String path, byte[] body, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).version(version).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> response;
        try {
            // the request's own timeout covers the wait for the headers; this one covers the body too
            response = exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw timeout(e);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw cancelled(e);
        } catch (ExecutionException e) {
            throw failed(e.getCause() == null ? e : e.getCause());
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return response.body();
        }
        throw new LlmException(ErrorKind.forHttpStatus(status), "HTTP " + status + " from " + baseUrl + ": "
                + serverMessage(response.body()), status, RetryAfter.parse(
                response.headers().allValues("retry-after-ms"), response.headers().allValues("retry-after")).orElse(null),
                null);
    }

    private LlmException timeout(Throwable cause) {
        return new LlmException(ErrorKind.TIMEOUT, "no answer from " + baseUrl + " within the timeout", cause);
    }

    private LlmException cancelled(Throwable cause) {
        return new LlmException(ErrorKind.CANCELLED, "the call to " + baseUrl + " was cancelled", cause);
    }

    private LlmException failed(Throwable cause) {
        if (cause instanceof HttpTimeoutException) { // HttpConnectTimeoutException included
            return timeout(cause);
        }
        if (cause instanceof CancellationException) {
            return cancelled(cause);
        }
        String what = cause instanceof ConnectException ? "refused or unreachable"
                : cause instanceof IOException ? "failed" : "failed unexpectedly";
        return new LlmException(ErrorKind.CONNECTION, "connection to " + baseUrl + " " + what + ": " + oneLine(cause),
                cause);
    }

    /**
     * The server's own words from an error body, on one line: OpenAI's {@code {"error": {"message": ...}}}, vLLM's
     * older {@code {"message": ...}}, FastAPI's {@code {"detail": ...}}; else the body's start as text.
     */
    static String serverMessage(byte[] body) {
        if (body == null || body.length == 0) {
            return "(no message)";
        }
        String text = null;
        try {
            text = said(JSON.readTree(body));
        } catch (IOException | RuntimeException notJson) {
            // quoted as text below
        }
        return oneLineQuote(text != null ? text : new String(body, 0, Math.min(body.length, 4 * QUOTED),
                StandardCharsets.UTF_8));
    }

    /** The server's own words from an answer already parsed (an error sent with status 200). */
    static String serverMessage(JsonNode tree) {
        String text = said(tree);
        return oneLineQuote(text != null ? text : tree.toString());
    }

    /** The message field of OpenAI's, vLLM's or FastAPI's error shape, or null. */
    private static String said(JsonNode tree) {
        JsonNode error = tree.path("error");
        JsonNode message = error.isObject() ? error.path("message") : error.isTextual() ? error : tree.path("message");
        if (message.isMissingNode() || message.isNull()) {
            message = tree.path("detail");
        }
        if (message.isTextual()) {
            return message.asText();
        }
        return message.isMissingNode() || message.isNull() ? null : message.toString();
    }

    private static String oneLineQuote(String text) {
        text = text.replaceAll("\\s+", " ").strip();
        return text.isEmpty() ? "(no message)" : text.length() > QUOTED ? text.substring(0, QUOTED) + "..." : text;
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m.strip().lines().findFirst().orElse(""));
    }

    @Override
    public void close() {
        http.shutdownNow(); // close() would wait for a hung exchange
        executor.shutdownNow();
        try {
            // its selector thread gone too: a thread still waiting in native code holds the JVM's exit back 0.3 s
            http.awaitTermination(Duration.ofSeconds(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
