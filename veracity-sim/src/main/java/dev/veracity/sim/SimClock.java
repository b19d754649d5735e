package dev.veracity.sim;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The time the simulator's latency, hangs and stream pacing pass on, and the date its responses carry: {@link #SYSTEM}, real time, by default; a
 * {@link ManualClock} in a test, whose time passes only when the test advances it. With it a test of queueing, pacing
 * or a hang decides when time passes and checks what the simulator did then, instead of timing it on a machine it
 * shares with other work.
 */
public interface SimClock {

    /** Real time: {@link System#nanoTime()} and the system's date, and waits on the {@code closing} latch itself. */
    SimClock SYSTEM = new SimClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long epochSecond() {
            return System.currentTimeMillis() / 1000;
        }

        @Override
        public boolean await(long nanos, CountDownLatch closing) throws InterruptedException {
            return closing.await(nanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public String toString() {
            return "SimClock.SYSTEM";
        }
    };

    /** Now, in nanoseconds from an arbitrary origin (only differences mean anything). */
    long nanoTime();

    /**
     * The date, in seconds since the epoch: what a response's {@code created} says. The system's by default, so a clock
     * written before this method existed still compiles; a test clock overrides it to control the date.
     */
    default long epochSecond() {
        return System.currentTimeMillis() / 1000;
    }

    /**
     * Waits {@code nanos} of this clock's time ({@link Long#MAX_VALUE}: for ever), or until {@code closing} opens.
     *
     * @return true when {@code closing} opened first (the server is closing), false when the time passed
     */
    boolean await(long nanos, CountDownLatch closing) throws InterruptedException;
}
