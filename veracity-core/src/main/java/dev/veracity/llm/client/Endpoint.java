package dev.veracity.llm.client;

import dev.failsafe.CircuitBreaker;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One model server of a client: its backend, its own concurrency limit ({@link CallLimiter}), the attempts it has
 * outstanding (waiting for its limit or in flight: what {@link EndpointPool} balances on), and, when the client has
 * several, a Failsafe {@link CircuitBreaker} that takes it out after failures in a row and lets a probe through later
 * ({@link Ejection}). A client's only server has no breaker: there is nowhere else to send its calls, and its errors
 * stay what they were.
 */
final class Endpoint {

    final int index;
    final LlmBackend backend;
    final CallLimiter limiter;
    /** Null for a client's only server. */
    private final CircuitBreaker<Object> breaker;
    final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong ejections = new AtomicLong();
    private final AtomicLong returns = new AtomicLong();

    Endpoint(int index, LlmBackend backend, ConcurrencyLimit concurrency, Ejection ejection) {
        this.index = index;
        this.backend = backend;
        this.limiter = new CallLimiter(concurrency);
        this.breaker = ejection == null ? null : CircuitBreaker.builder()
                .withFailureThreshold(ejection.failuresInARow())
                .withSuccessThreshold(1) // one probe at a time; its answer closes the breaker
                .withDelay(ejection.probeAfter())
                // taken out once per outage: a failed probe (half-open back to open) is not another ejection
                .onOpen(e -> {
                    if (e.getPreviousState() == CircuitBreaker.State.CLOSED) {
                        ejections.incrementAndGet();
                    }
                })
                .onClose(e -> returns.incrementAndGet())
                .build();
    }

    String id() {
        return backend.id();
    }

    /**
     * Takes this server for one attempt if it is in (or its probe is due and free): counts the attempt as outstanding.
     * Every attempt taken must end in {@link #answered}, {@link #failed} or {@link #abandoned}, then {@link #left}; the
     * attempts sent to it are those that were answered or failed.
     */
    boolean tryTake() {
        if (breaker != null && !breaker.tryAcquirePermit()) {
            return false;
        }
        outstanding.incrementAndGet();
        return true;
    }

    /** The server answered the attempt (whatever the answer's faults: it is up). */
    void answered() {
        answered.incrementAndGet();
        if (breaker != null) {
            breaker.recordSuccess();
        }
    }

    /**
     * The attempt failed: a failure of the server's own counts towards taking it out; a cancelled attempt (interrupted)
     * or one our side failed says nothing of the server; any other shows it is up.
     */
    void failed(LlmException e) {
        if (e.kind() == ErrorKind.CANCELLED || e.kind() == ErrorKind.INTERNAL) {
            abandoned();
        } else if (serverDown(e)) {
            failures.incrementAndGet();
            if (breaker != null) {
                breaker.recordFailure();
            }
        } else {
            answered();
        }
    }

    /** The attempt never reached the server (interrupted while waiting for its limit): a probe it held is retried later. */
    void abandoned() {
        if (breaker != null && breaker.isHalfOpen()) {
            breaker.recordFailure();
        }
    }

    /** The attempt is over. */
    void left() {
        outstanding.decrementAndGet();
    }

    /**
     * Whether this server was taken out and its probe is not yet due: an attempt that took it before and waited for
     * its limit meanwhile goes elsewhere rather than to a server that failed repeatedly.
     */
    boolean ejected() {
        return breaker != null && breaker.isOpen();
    }

    /** Whether this server is out now (a probe may be due: {@link #tryTake} lets it through). */
    boolean out() {
        return breaker != null && !breaker.isClosed();
    }

    /** How long until this server's probe is due (zero when it is in or due now). */
    java.time.Duration untilProbe() {
        return breaker == null || !breaker.isOpen() ? java.time.Duration.ZERO : breaker.getRemainingDelay();
    }

    /**
     * Whether a failure says the server itself is down or failing: connection refused or reset, a 5xx other than 503,
     * no answer in time. A 429 or a 503 (it is up and turns calls away for load: its limit shrinks, as
     * {@link CallLimiter} reads them), a bad request, an empty or cut answer say it is up.
     */
    static boolean serverDown(LlmException e) {
        return e.kind() == ErrorKind.CONNECTION || e.kind() == ErrorKind.TIMEOUT
                || e.kind() == ErrorKind.SERVER_ERROR && e.httpStatus().orElse(0) != 503;
    }

    EndpointStats stats() {
        return new EndpointStats(id(), answered.get() + failures.get(), answered.get(), failures.get(), ejections.get(), returns.get(),
                limiter.limit(), out(), outstanding.get());
    }
}
