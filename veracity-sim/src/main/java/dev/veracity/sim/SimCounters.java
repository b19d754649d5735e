package dev.veracity.sim;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of a {@link SimServer}. Counts are cumulative until {@link #reset()}; gauges
 * ({@link #inFlight()}, {@link #generating()}, {@link #queued()}) are always current.
 */
public final class SimCounters {
    private final LongAdder total = new LongAdder();
    private final LongAdder[] byEndpoint = adders(Endpoint.values().length);
    private final LongAdder[] byFault = adders(FaultKind.values().length);
    private final LongAdder queueRejections = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> recognised = new ConcurrentHashMap<>();
    private final LongAdder unrecognised = new LongAdder();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicInteger peakQueued = new AtomicInteger();
    private final AtomicInteger generating = new AtomicInteger();
    private final AtomicInteger peakGenerating = new AtomicInteger();

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** Every request received, whatever its path or outcome. */
    public long totalRequests() {
        return total.sum();
    }

    /** Requests to the endpoints that generate text (chat and text completions), not model listings. */
    public long generationRequests() {
        long n = 0;
        for (Endpoint e : Endpoint.values()) {
            if (e.generates()) {
                n += requests(e);
            }
        }
        return n;
    }

    /** Requests to one endpoint (right method or not). */
    public long requests(Endpoint endpoint) {
        return byEndpoint[endpoint.ordinal()].sum();
    }

    /** Requests inside the server right now: queued, generating, hanging or being answered. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Most requests ever in flight at once (counted on arrival, before the queue). */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    /** Requests waiting for a generation slot right now. */
    public int queued() {
        return queued.get();
    }

    public int peakQueued() {
        return peakQueued.get();
    }

    /** Requests holding a generation slot right now. */
    public int generating() {
        return generating.get();
    }

    /** Most requests ever holding slots at once; never more than the capacity. */
    public int peakGenerating() {
        return peakGenerating.get();
    }

    /** How often a fault of this kind was injected. {@code NONE} counts requests that drew no fault. */
    public long faultsInjected(FaultKind kind) {
        return byFault[kind.ordinal()].sum();
    }

    /** All injected faults, {@code NONE} excluded. */
    public long totalFaultsInjected() {
        long sum = 0;
        for (FaultKind k : FaultKind.values()) {
            if (k != FaultKind.NONE) {
                sum += byFault[k.ordinal()].sum();
            }
        }
        return sum;
    }

    /** Requests answered 429 (or 503, {@link SimConfig#queueFullStatus()}) because the queue was full ({@link SimConfig#maxQueue()}). */
    public long queueRejections() {
        return queueRejections.sum();
    }

    /**
     * Prompts the built-in reader answered, by the name of the {@link dev.veracity.sim.reader.PromptReader} that
     * recognised them (prompts a rule matched are not counted), sorted by name.
     */
    public Map<String, Long> promptsRecognised() {
        Map<String, Long> out = new TreeMap<>();
        recognised.forEach((name, n) -> out.put(name, n.sum()));
        return out;
    }

    /**
     * Prompts that went to the built-in reader and that no reader recognised: they got the rule set's default answer
     * ({@link SimServer#unrecognisedPrompts()} keeps the last of them).
     */
    public long unrecognisedPrompts() {
        return unrecognised.sum();
    }

    /** Sets the peaks back to the current gauge values. */
    public void resetPeak() {
        peakInFlight.set(inFlight.get());
        peakQueued.set(queued.get());
        peakGenerating.set(generating.get());
    }

    /** Zeroes every count and resets the peaks (gauges keep counting what is in flight). */
    public void reset() {
        total.reset();
        for (LongAdder a : byEndpoint) {
            a.reset();
        }
        for (LongAdder a : byFault) {
            a.reset();
        }
        queueRejections.reset();
        recognised.clear();
        unrecognised.reset();
        resetPeak();
    }

    // --- updates, from the handler ---

    void arrived(Endpoint endpoint) {
        total.increment();
        if (endpoint != null) {
            byEndpoint[endpoint.ordinal()].increment();
        }
        peak(peakInFlight, inFlight.incrementAndGet());
    }

    void left() {
        inFlight.decrementAndGet();
    }

    /** Returns how many are queued now, this request included. */
    int enqueued() {
        int q = queued.incrementAndGet();
        peak(peakQueued, q);
        return q;
    }

    void dequeued() {
        queued.decrementAndGet();
    }

    void startedGenerating() {
        peak(peakGenerating, generating.incrementAndGet());
    }

    void stoppedGenerating() {
        generating.decrementAndGet();
    }

    void fault(FaultKind kind) {
        byFault[kind.ordinal()].increment();
    }

    void queueRejected() {
        queueRejections.increment();
    }

    void recognised(String reader) {
        recognised.computeIfAbsent(reader, r -> new LongAdder()).increment();
    }

    void unrecognised() {
        unrecognised.increment();
    }

    private static void peak(AtomicInteger peak, int value) {
        int p;
        while (value > (p = peak.get()) && !peak.compareAndSet(p, value)) {
            // retry: another thread raised the peak concurrently
        }
    }

    @Override
    public String toString() {
        return "SimCounters[total=" + totalRequests() + ", inFlight=" + inFlight() + ", peakInFlight=" + peakInFlight()
                + ", peakGenerating=" + peakGenerating() + ", faults=" + totalFaultsInjected()
                + ", queueRejections=" + queueRejections() + "]";
    }
}
