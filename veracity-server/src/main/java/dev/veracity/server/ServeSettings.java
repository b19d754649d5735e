package dev.veracity.server;

import dev.veracity.http.ServerLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@code veracity serve} listens and what it accepts.
 *
 * @param host              the address to listen on (127.0.0.1 by default: this machine only)
 * @param port              the port; 0 picks a free one
 * @param limits            body size, messages and documents per request ({@code maxBatch}), requests at once, queue
 *                          wait, request deadline, idle connections, stop grace
 * @param keepAlive         while a streamed answer is being worked out, a {@code : keep-alive} comment this often
 * @param keys              the API keys clients must present; none = no authentication (loopback only, unless
 *                          {@code insecureListen})
 * @param requestsPerMinute each key's (or, without keys, everyone's) rate; 0 for none
 * @param maxInFlightPerKey each key's requests in flight; 0 for none
 * @param insecureListen    allow a non-loopback address without API keys
 */
public record ServeSettings(String host, int port, ServerLimits limits, Duration keepAlive, ApiKeys keys,
                            int requestsPerMinute, int maxInFlightPerKey, boolean insecureListen) {

    public ServeSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(keys, "keys");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("a port is from 0 to 65535, was " + port);
        }
        if (keepAlive.isNegative() || keepAlive.isZero()) {
            throw new IllegalArgumentException("the keep-alive interval must be positive, was " + keepAlive);
        }
        new KeyLimiter.Limits(requestsPerMinute, maxInFlightPerKey); // checks them
    }

    /**
     * Loopback, a free port, 16 MiB bodies, 256 messages or documents per request, 256 requests at once, a 300 s
     * deadline (a multi-agent method makes many calls), keep-alive every 5 s, no keys, no per-key limits.
     */
    public static ServeSettings defaults() {
        return new ServeSettings("127.0.0.1", 0, ServerLimits.defaults().withMaxBatch(256)
                .withRequestDeadline(Duration.ofSeconds(300)), Duration.ofSeconds(5), ApiKeys.none(), 0, 0, false);
    }

    /**
     * Refuses a non-loopback address without API keys, unless {@link #insecureListen()}: anyone who reaches the port
     * could use the upstream model.
     *
     * @throws IllegalArgumentException saying what to give instead
     */
    public void requireSafeListen() {
        if (keys.isEmpty() && !insecureListen && !loopback(host)) {
            throw new IllegalArgumentException("no API keys are configured, so the server listens on this machine only:"
                    + " give keys (--api-keys-file FILE or VERACITY_SERVE_API_KEYS) to listen on " + host
                    + ", or pass --insecure-listen to let anyone who reaches it use the upstream model");
        }
    }

    private static boolean loopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve the address to listen on: " + host);
        }
    }

    public ServeSettings withHost(String h) {
        return new ServeSettings(h, port, limits, keepAlive, keys, requestsPerMinute, maxInFlightPerKey, insecureListen);
    }

    public ServeSettings withPort(int p) {
        return new ServeSettings(host, p, limits, keepAlive, keys, requestsPerMinute, maxInFlightPerKey, insecureListen);
    }

    public ServeSettings withLimits(ServerLimits l) {
        return new ServeSettings(host, port, l, keepAlive, keys, requestsPerMinute, maxInFlightPerKey, insecureListen);
    }

    public ServeSettings withKeepAlive(Duration d) {
        return new ServeSettings(host, port, limits, d, keys, requestsPerMinute, maxInFlightPerKey, insecureListen);
    }

    public ServeSettings withKeys(ApiKeys k) {
        return new ServeSettings(host, port, limits, keepAlive, k, requestsPerMinute, maxInFlightPerKey, insecureListen);
    }

    public ServeSettings withRequestsPerMinute(int n) {
        return new ServeSettings(host, port, limits, keepAlive, keys, n, maxInFlightPerKey, insecureListen);
    }

    public ServeSettings withMaxInFlightPerKey(int n) {
        return new ServeSettings(host, port, limits, keepAlive, keys, requestsPerMinute, n, insecureListen);
    }

    public ServeSettings withInsecureListen(boolean b) {
        return new ServeSettings(host, port, limits, keepAlive, keys, requestsPerMinute, maxInFlightPerKey, b);
    }
}
