package dev.veracity.server;

import dev.veracity.http.HttpProblem;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-client limits, a client being an API key (or everyone, without keys): a rate of requests per minute (a token
 * bucket holding ten seconds' worth, at least one, so short bursts pass) and a number of requests in flight. Over
 * either, 429 with {@code Retry-After} (the seconds until the bucket has a token again; 1 for the concurrency limit).
 * Clients are the configured keys, a fixed set: the map cannot grow.
 */
final class KeyLimiter {

    /**
     * @param requestsPerMinute requests a client may make per minute; 0 for no limit
     * @param maxInFlight       requests a client may have in flight; 0 for no limit
     */
    record Limits(int requestsPerMinute, int maxInFlight) {

        static final Limits NONE = new Limits(0, 0);

        Limits {
            if (requestsPerMinute < 0 || maxInFlight < 0) {
                throw new IllegalArgumentException("limits are 0 (none) or positive");
            }
        }
    }

    private final Limits limits;
    private final Map<String, Client> clients = new ConcurrentHashMap<>();

    KeyLimiter(Limits limits) {
        this.limits = limits;
    }

    /** Takes a request's place for the client, or throws 429; {@link #release} gives the place back. */
    void acquire(String client) {
        Client c = clients.computeIfAbsent(client, k -> new Client(limits));
        c.acquire();
    }

    void release(String client) {
        Client c = clients.get(client);
        if (c != null) {
            c.release();
        }
    }

    private static final class Client {
        private final Limits limits;
        private final double capacity;
        private final double perNano;
        private double tokens;
        private long updated = System.nanoTime();
        private int inFlight;

        Client(Limits limits) {
            this.limits = limits;
            this.capacity = Math.max(1, limits.requestsPerMinute() / 6.0);
            this.perNano = limits.requestsPerMinute() / 60e9;
            this.tokens = capacity;
        }

        synchronized void acquire() {
            if (limits.maxInFlight() > 0 && inFlight >= limits.maxInFlight()) {
                throw new HttpProblem(429, "too_many_concurrent_requests", "this key has " + inFlight + " requests in"
                        + " flight, its limit: wait for one to finish").withHeader("Retry-After", "1");
            }
            if (limits.requestsPerMinute() > 0) {
                long now = System.nanoTime();
                tokens = Math.min(capacity, tokens + (now - updated) * perNano);
                updated = now;
                if (tokens < 1) {
                    long seconds = (long) Math.ceil((1 - tokens) / perNano / 1e9);
                    throw new HttpProblem(429, "rate_limit_exceeded", "this key is limited to "
                            + limits.requestsPerMinute() + " requests per minute: retry in " + seconds + " s")
                            .withHeader("Retry-After", Long.toString(Math.max(1, seconds)));
                }
                tokens -= 1;
            }
            inFlight++;
        }

        synchronized void release() {
            inFlight--;
        }
    }
}
