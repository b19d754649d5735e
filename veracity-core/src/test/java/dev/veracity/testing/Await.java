package dev.veracity.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waiting in a test for what another thread or process does: the condition is polled until it holds. The guard only
 * keeps a broken test from hanging the build; it measures nothing, and is long enough that a busy machine never
 * reaches it while the code under test works.
 */
public final class Await {

    /** How long a test waits for something that should happen at once before it fails. */
    public static final Duration GUARD = Duration.ofSeconds(60);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails, naming {@code what}, when it still does not after {@link #GUARD}. */
    public static void until(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + GUARD.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("still waiting, after " + GUARD.toSeconds() + " s, for " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
