package dev.veracity.llm.client;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How many attempts may run at once against one backend: a gate ({@link OrderedPermits}: a freed place goes to the
 * call of the earliest question, then to the one that waited longest) of a fixed size, or
 * of a size that Netflix's concurrency-limits {@link VegasLimit} sets from what each attempt tells it
 * ({@link ConcurrencyLimit#adaptive() auto}). Vegas compares each attempt's round trip with the least seen: while they
 * stay alike the server is not queueing and the limit grows; when the round trips grow the server queues and the limit
 * shrinks; an attempt the server turned away for load (429, 503, a timeout: {@link #overload}) cuts it.
 *
 * <p>What is ours, each measured against the library alone on a scripted server ({@code CallLimiterTest}) and on the
 * simulator ({@code bench concurrency}):
 * <ul>
 *   <li>The gate. The library's {@code SimpleLimiter} rejects instead of waiting, and its {@code BlockingLimiter} wakes
 *   every waiter on each release and keeps no order; calls here wait their turn on virtual threads, earlier questions
 *   first.</li>
 *   <li>What a round trip is compared with. A model's answer takes longer the longer it is, which Vegas alone reads as
 *   queueing: with answers of 10 to 200 tokens at 3 ms a token it held the limit near 6-12 against a server that
 *   queued nothing. Each round trip is compared with the least seen for answers of about its length (bands 1.25x
 *   wide), so only a slowdown that is not the answer's own reads as queueing (the limit grew past 100 there).</li>
 *   <li>No probing. Vegas takes a fresh least round trip every 30 x limit samples, whatever the load: against a server
 *   that queues, that sample is a queued one, and the limit climbed by its queue thresholds at each probe (from 16 to
 *   about 49 over 4,000 scripted rounds with 16 slots and an unbounded queue). The least round trip here is the least
 *   of the run.</li>
 *   <li>Smoothing ({@link #SMOOTHING}, a parameter of the library's) and a refusal's weight ({@link #DROP_WEIGHT}).</li>
 * </ul>
 * A refusal comes back at once, so its round trip says nothing of the server's load and is never taken for the least:
 * it is sampled as twice the slowest answer seen, marked as a drop.
 */
public final class CallLimiter {

    /** The scale normalized round trips are given on (the least of each band maps to it). */
    private static final long REFERENCE_NANOS = 100_000_000L;
    /**
     * The share of each step Vegas takes (its own default takes all). Vegas steps at every sample, and the samples
     * that show a wider limit's queueing come a round trip after it was widened: unsmoothed, the limit went from 16
     * past 50 in the first round trips against 16 slots and a queue of 16, and the attempts past the queue were
     * answered 503 (each then waits its Retry-After, a second); at 0.05 it rose to 20-24 and no attempt was refused.
     */
    static final double SMOOTHING = 0.05;
    /** A refusal counts as this many samples: each cuts the limit by a whole Vegas step, as unsmoothed. */
    private static final int DROP_WEIGHT = (int) Math.round(1 / SMOOTHING);
    /** How much longer an answer may be and still be compared with the same least round trip. */
    private static final double BAND = 1.25;

    private final ConcurrencyLimit setting;
    private final LongSupplier nanoClock;
    private final Limit algorithm; // null when fixed
    private final OrderedPermits gate;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger lowest;
    private final AtomicInteger highest;
    private final AtomicLong drops = new AtomicLong();
    /** Per band of answer lengths, the least round trip seen; [0] also for answers of unknown length. */
    private final long[] leastByLength = new long[64];
    private long slowestNormalized = REFERENCE_NANOS;
    private volatile int limit;

    public CallLimiter(ConcurrencyLimit setting) {
        this(setting, System::nanoTime);
    }

    /** With the clock round trips are timed on (a test's own). */
    CallLimiter(ConcurrencyLimit setting, LongSupplier nanoClock) {
        this.setting = Objects.requireNonNull(setting, "setting");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.limit = setting.initial();
        this.lowest = new AtomicInteger(limit);
        this.highest = new AtomicInteger(limit);
        this.gate = new OrderedPermits(limit);
        if (setting.adaptive()) {
            // Vegas's own queue thresholds (3 and 6 x log10 of the limit) and steps, smoothed; probing off (see above)
            this.algorithm = VegasLimit.newBuilder().initialLimit(setting.initial()).maxConcurrency(setting.max())
                    .probeMultiplier(Integer.MAX_VALUE).smoothing(SMOOTHING).build();
            algorithm.notifyOnChange(this::resize);
        } else {
            this.algorithm = null;
        }
    }

    /** The setting this limiter was made with. */
    public ConcurrencyLimit setting() {
        return setting;
    }

    /** The limit now: attempts allowed in flight at once. */
    public int limit() {
        return limit;
    }

    /** The lowest the limit has been. */
    public int lowestLimit() {
        return lowest.get();
    }

    /** The highest the limit has been. */
    public int highestLimit() {
        return highest.get();
    }

    /** Attempts the server turned away for load (each cut an adaptive limit). */
    public long drops() {
        return drops.get();
    }

    /** Attempts holding a place now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Whether an attempt's failure says the server is overloaded: 429, 503, or no answer in time. */
    public static boolean overload(LlmException e) {
        return e.kind() == ErrorKind.RATE_LIMITED || e.kind() == ErrorKind.TIMEOUT
                || e.httpStatus().orElse(0) == 503;
    }

    /** Waits for a place, in the order callers came. */
    public Permit acquire() throws InterruptedException {
        return acquire(0);
    }

    /**
     * Waits for a place behind the calls of earlier questions ({@link dev.veracity.trace.CallContext#order()}), among
     * calls of the same place in the order they came.
     */
    public Permit acquire(long order) throws InterruptedException {
        gate.acquire(order);
        return new Permit(nanoClock.getAsLong(), inFlight.incrementAndGet());
    }

    /** A place if one is free now, else null (for tests of the gate). */
    Permit tryAcquire() {
        return gate.tryAcquire() ? new Permit(nanoClock.getAsLong(), inFlight.incrementAndGet()) : null;
    }

    /** One attempt's place; the first of its methods called settles it, later calls do nothing. */
    public final class Permit {
        private final long startNanos;
        private final int inFlightAtStart;
        private boolean done;

        private Permit(long startNanos, int inFlightAtStart) {
            this.startNanos = startNanos;
            this.inFlightAtStart = inFlightAtStart;
        }

        /**
         * The server answered: its round trip, against the least seen for answers of about this length, is a sample
         * of its load.
         *
         * @param outputTokens the answer's length in tokens (the longest sample's), or -1 when unknown
         */
        public void succeeded(long outputTokens) {
            long rtt = Math.max(1, nanoClock.getAsLong() - startNanos);
            release(normalized(rtt, outputTokens), false);
        }

        /** The server turned the attempt away for load: a drop, sampled as twice the slowest answer seen. */
        public void dropped() {
            drops.incrementAndGet();
            release(2 * slowest(), true);
        }

        /** The attempt failed for a reason that says nothing of the server's load (a bad request, a malformed body). */
        public void ignored() {
            release(-1, false);
        }

        private void release(long sampleNanos, boolean drop) {
            if (done) {
                return;
            }
            done = true;
            inFlight.decrementAndGet();
            try {
                if (algorithm != null && sampleNanos > 0) {
                    for (int i = drop ? DROP_WEIGHT : 1; i > 0; i--) {
                        algorithm.onSample(startNanos, sampleNanos, inFlightAtStart, drop);
                    }
                }
            } finally {
                gate.release(); // whatever the algorithm does, the place is given back
            }
        }
    }

    /** The round trip on the reference scale, against the least seen in its band of answer lengths. */
    private synchronized long normalized(long rtt, long outputTokens) {
        int band = outputTokens <= 0 ? 0
                : (int) Math.min(leastByLength.length - 1, Math.floor(Math.log(outputTokens + 1) / Math.log(BAND)));
        if (leastByLength[band] == 0 || rtt < leastByLength[band]) {
            leastByLength[band] = rtt;
        }
        long n = Math.max(1, Math.round((double) rtt / leastByLength[band] * REFERENCE_NANOS));
        slowestNormalized = Math.max(slowestNormalized, n);
        return n;
    }

    private synchronized long slowest() {
        return slowestNormalized;
    }

    /** Called by the algorithm (under its lock) when the limit moves: the gate grows or shrinks by the difference. */
    private void resize(int newLimit) {
        int old = limit;
        limit = newLimit;
        lowest.accumulateAndGet(newLimit, Math::min);
        highest.accumulateAndGet(newLimit, Math::max);
        if (newLimit > old) {
            gate.grow(newLimit - old);
        } else if (newLimit < old) {
            gate.shrink(old - newLimit); // places in use now are given back, not reused, until within the limit
        }
    }

    @Override
    public String toString() {
        return setting.adaptive() ? "auto (limit " + limit + ", lowest " + lowestLimit() + ", highest "
                + highestLimit() + ", " + drops() + " drops)" : setting.toString();
    }

}
