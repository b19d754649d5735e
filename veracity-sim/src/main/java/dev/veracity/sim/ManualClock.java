package dev.veracity.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link SimClock} whose time passes only when {@link #advance} is called, for tests: a request sleeping in its
 * latency or a hang wakes when the clock reaches the time it waits for, and not before. A test moves time on step by
 * step and checks what the simulator did at each: which requests generate and which wait for a slot
 * ({@link SimServer#counters()}), which events a stream has sent, how long each sleeping request still waits
 * ({@link #sleeping()}). A closing server wakes its sleepers as with real time.
 *
 * <p>{@code SimConfig.builder().clock(clock)}; one clock may drive several servers.
 */
public final class ManualClock implements SimClock {

    /** How often a sleeper looks at its server's closing latch (an advance wakes it at once). */
    private static final long CLOSING_POLL_MILLIS = 10;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** The deadlines of the threads sleeping now, with how many sleep until each. */
    private final TreeMap<Long, Integer> deadlines = new TreeMap<>();
    private long now;

    @Override
    public long nanoTime() {
        lock.lock();
        try {
            return now;
        } finally {
            lock.unlock();
        }
    }

    /** The date at time 0: 2026-01-01T00:00:00Z. */
    public static final long EPOCH_SECOND_AT_START = 1_767_225_600L;

    /** {@link #EPOCH_SECOND_AT_START} plus the whole seconds advanced since. */
    @Override
    public long epochSecond() {
        return EPOCH_SECOND_AT_START + nanoTime() / 1_000_000_000L;
    }

    @Override
    public boolean await(long nanos, CountDownLatch closing) throws InterruptedException {
        lock.lock();
        try {
            long until = nanos > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + Math.max(0, nanos);
            deadlines.merge(until, 1, Integer::sum);
            changed.signalAll();
            try {
                while (now < until) {
                    if (closing.getCount() == 0) {
                        return true;
                    }
                    changed.await(CLOSING_POLL_MILLIS, TimeUnit.MILLISECONDS);
                }
                return false;
            } finally {
                deadlines.computeIfPresent(until, (t, n) -> n == 1 ? null : n - 1);
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Moves the time on by {@code d}: every sleeper whose time has come wakes. */
    public void advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("time does not go back: " + d);
        }
        lock.lock();
        try {
            now += d.toNanos();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * How long each thread sleeping on this clock still waits, shortest first; one whose time has come but which has not
     * woken yet is not counted.
     */
    public List<Duration> sleeping() {
        lock.lock();
        try {
            List<Duration> out = new ArrayList<>();
            for (Map.Entry<Long, Integer> e : deadlines.tailMap(now, false).entrySet()) {
                for (int i = 0; i < e.getValue(); i++) {
                    out.add(Duration.ofNanos(e.getKey() - now));
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until exactly {@code count} threads sleep on this clock for a time still to come (requests in their latency or
     * a hang, streams between events): the point where a test knows what the simulator is doing.
     *
     * @param timeout a guard against a broken test hanging the build, not a measure of anything
     * @return false when the guard ran out first
     */
    public boolean awaitSleeping(int count, Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (deadlines.tailMap(now, false).values().stream().mapToInt(Integer::intValue).sum() != count) {
                if (left <= 0) {
                    return false;
                }
                left = changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "ManualClock[" + Duration.ofNanos(nanoTime()) + ", sleeping " + sleeping() + "]";
    }
}
