package dev.veracity.http;

import java.time.Duration;
import java.util.Objects;

/**
 * What one server accepts and how long it waits. Every server of the project has all of them, because the retrieval
 * service without them ran a 100 MB body of 20M queries for five minutes at 6.4 GB after its client had gone.
 *
 * @param maxBodyBytes          largest request body; a larger one is refused with 413 before it is read whole
 * @param maxBatch              most items in one request ({@link JsonCall#requireBatch}); more is a 413
 * @param maxConcurrentRequests most requests handled at once (health and metrics excluded)
 * @param queueWait             how long a request waits for one of those places before it is refused with 429
 * @param requestDeadline       longest a route may take; past it the client gets 503 and the route's thread is
 *                              interrupted
 * @param idleTimeout           a connection that sends nothing for this long is closed (slow or idle clients); a
 *                              route that is computing is not idle
 * @param stopGrace             on stop, how long requests in flight may take to finish before they are cancelled
 */
public record ServerLimits(long maxBodyBytes, int maxBatch, int maxConcurrentRequests, Duration queueWait,
                           Duration requestDeadline, Duration idleTimeout, Duration stopGrace) {

    /** A body is held in one array while it is parsed: 1 GiB is the most a limit may allow. */
    public static final long MAX_BODY_LIMIT = 1L << 30;

    public ServerLimits {
        if (maxBodyBytes < 1 || maxBodyBytes > MAX_BODY_LIMIT) {
            throw new IllegalArgumentException("the body limit must be from 1 byte to 1 GiB, was " + maxBodyBytes);
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("the batch limit must be at least 1, was " + maxBatch);
        }
        if (maxConcurrentRequests < 1) {
            throw new IllegalArgumentException("the concurrency limit must be at least 1, was " + maxConcurrentRequests);
        }
        positive(queueWait, "queue wait", true);
        positive(requestDeadline, "request deadline", false);
        positive(idleTimeout, "idle timeout", false);
        positive(stopGrace, "stop grace", true);
    }

    private static void positive(Duration d, String what, boolean zeroAllowed) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || (!zeroAllowed && d.isZero())) {
            throw new IllegalArgumentException("the " + what + " must be " + (zeroAllowed ? "zero or more" : "positive")
                    + ", was " + d);
        }
    }

    /** 16 MiB bodies, 1,024 items, 256 requests at once waiting up to 5 s, 120 s deadline, 30 s idle, 5 s grace. */
    public static ServerLimits defaults() {
        return new ServerLimits(16L << 20, 1024, 256, Duration.ofSeconds(5), Duration.ofSeconds(120),
                Duration.ofSeconds(30), Duration.ofSeconds(5));
    }

    public ServerLimits withMaxBodyBytes(long bytes) {
        return new ServerLimits(bytes, maxBatch, maxConcurrentRequests, queueWait, requestDeadline, idleTimeout, stopGrace);
    }

    public ServerLimits withMaxBatch(int items) {
        return new ServerLimits(maxBodyBytes, items, maxConcurrentRequests, queueWait, requestDeadline, idleTimeout, stopGrace);
    }

    public ServerLimits withMaxConcurrentRequests(int n) {
        return new ServerLimits(maxBodyBytes, maxBatch, n, queueWait, requestDeadline, idleTimeout, stopGrace);
    }

    public ServerLimits withQueueWait(Duration d) {
        return new ServerLimits(maxBodyBytes, maxBatch, maxConcurrentRequests, d, requestDeadline, idleTimeout, stopGrace);
    }

    public ServerLimits withRequestDeadline(Duration d) {
        return new ServerLimits(maxBodyBytes, maxBatch, maxConcurrentRequests, queueWait, d, idleTimeout, stopGrace);
    }

    public ServerLimits withIdleTimeout(Duration d) {
        return new ServerLimits(maxBodyBytes, maxBatch, maxConcurrentRequests, queueWait, requestDeadline, d, stopGrace);
    }

    public ServerLimits withStopGrace(Duration d) {
        return new ServerLimits(maxBodyBytes, maxBatch, maxConcurrentRequests, queueWait, requestDeadline, idleTimeout, d);
    }
}
