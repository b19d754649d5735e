package dev.veracity.llm.client;

/**
 * Epoch microseconds from a monotonic source: wall-clock anchored once, then advanced by {@link System#nanoTime()},
 * so that trace intervals never run backwards when the system clock is adjusted mid-run.
 */
public final class Clock {

    private static final long ANCHOR_MICROS = System.currentTimeMillis() * 1000;
    private static final long ANCHOR_NANOS = System.nanoTime();

    private Clock() {
    }

    public static long micros() {
        return ANCHOR_MICROS + (System.nanoTime() - ANCHOR_NANOS) / 1000;
    }
}
