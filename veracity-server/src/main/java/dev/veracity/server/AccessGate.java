package dev.veracity.server;

import dev.veracity.http.HttpProblem;
import dev.veracity.http.RequestGate;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The door of {@code veracity serve}, before a request's body is read: its API key ({@code Authorization: Bearer
 * KEY}, 401 {@code missing_api_key} / {@code invalid_api_key} otherwise) when keys are configured, then its key's rate
 * and concurrency ({@link KeyLimiter}, 429). The probes ({@code /healthz}, {@code /readyz}) and the playground's files
 * ({@link Playground}) pass freely. Nothing of a presented token is ever echoed or logged.
 */
public final class AccessGate implements RequestGate {

    /** Paths that need no key: health probes carry none; the playground's files hold nothing secret (its API calls do). */
    static final Set<String> OPEN_PATHS = Stream.concat(Stream.of("/healthz", "/readyz"), Playground.ASSETS.keySet().stream())
            .collect(Collectors.toUnmodifiableSet());
    static final String ANONYMOUS = "anonymous";

    private final ApiKeys keys;
    private final KeyLimiter limiter;
    private final ServeMetrics metrics;

    AccessGate(ApiKeys keys, KeyLimiter limiter, ServeMetrics metrics) {
        this.keys = keys;
        this.limiter = limiter;
        this.metrics = metrics;
    }

    /**
     * Serve's door for another HTTP server ({@code veracity mcp --port}): the settings' keys and per-key limits, with
     * metrics of its own.
     */
    public static RequestGate of(ServeSettings settings) {
        return new AccessGate(settings.keys(), new KeyLimiter(new KeyLimiter.Limits(settings.requestsPerMinute(),
                settings.maxInFlightPerKey())), new ServeMetrics(new dev.veracity.http.ServerMetrics()));
    }

    @Override
    public Admission admit(String method, String path, Function<String, String> headers) {
        if (OPEN_PATHS.contains(path)) {
            return Admission.ANONYMOUS;
        }
        String client = ANONYMOUS;
        if (!keys.isEmpty()) {
            String auth = headers.apply("Authorization");
            if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7) || auth.length() == 7) {
                metrics.rejected("missing_api_key");
                throw unauthorized("missing_api_key", "this server needs an API key: send Authorization: Bearer KEY");
            }
            client = keys.match(auth.substring(7).strip());
            if (client == null) {
                metrics.rejected("invalid_api_key");
                throw unauthorized("invalid_api_key", "the API key is not valid here");
            }
        }
        try {
            limiter.acquire(client);
        } catch (HttpProblem p) {
            metrics.rejected(p.code());
            throw p;
        }
        String admitted = client;
        return new Admission() {
            @Override
            public String principal() {
                return admitted;
            }

            @Override
            public void close() {
                limiter.release(admitted);
            }
        };
    }

    private static HttpProblem unauthorized(String code, String message) {
        return new HttpProblem(401, code, message).withHeader("WWW-Authenticate", "Bearer");
    }
}
