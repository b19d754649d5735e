package dev.veracity.testing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A bound on the work a piece of code does, not on the wall time it takes: the code runs on a platform thread of its
 * own and the bound is on the CPU time that thread uses. Wall time on a shared two-core machine grows with every other
 * build that runs beside the test; the CPU time of one thread does not. For the linear-time checks (parsers on hostile
 * model output, readers on huge prompts): a backtracking regex or a quadratic loop burns CPU and fails at the budget,
 * linear code uses a few milliseconds of it.
 *
 * <p>A thread past its budget is abandoned (a daemon: a backtracking regex ignores interrupts), so the test fails at the
 * budget instead of hanging the build. Work that stops using CPU without finishing is blocked, which no budgeted work
 * should be: the test fails after {@link #BLOCKED} of wall time, a guard against a hung build and no measure of speed.
 */
public final class CpuBudget {

    /** How long a thread that is no longer computing may take before the test calls it blocked. */
    public static final Duration BLOCKED = Duration.ofSeconds(60);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuBudget() {
    }

    /** Runs {@code work}; fails when it uses more than {@code budget} of CPU time, throws, or blocks. */
    public static void run(Duration budget, String what, Runnable work) {
        call(budget, what, () -> {
            work.run();
            return null;
        });
    }

    /**
     * The value of {@code work}; fails when it uses more than {@code budget} of CPU time, or blocks. An assertion that
     * fails inside {@code work} fails the test as it is; anything else it throws is wrapped in one that names
     * {@code what}.
     *
     * @param what what the work is, for the failure's message ("the parser on a 100000-character input ...")
     */
    public static <T> T call(Duration budget, String what, Supplier<T> work) {
        return call(budget, BLOCKED, what, work);
    }

    static <T> T call(Duration budget, Duration blocked, String what, Supplier<T> work) {
        if (!THREADS.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM does not measure the CPU time of threads, which the test needs");
        }
        if (!THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong used = new AtomicLong();
        Thread worker = Thread.ofPlatform().daemon(true).name("cpu-budget").unstarted(() -> {
            long start = THREADS.getCurrentThreadCpuTime();
            try {
                result.set(work.get());
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                used.set(THREADS.getCurrentThreadCpuTime() - start);
            }
        });
        long limit = budget.toNanos();
        long blockedAt = System.nanoTime() + blocked.toNanos();
        worker.start();
        try {
            while (!worker.join(Duration.ofMillis(5))) {
                long cpu = THREADS.getThreadCpuTime(worker.threadId());
                if (cpu > limit) {
                    throw new AssertionError(what + " used more than " + millis(limit) + " ms of CPU time");
                }
                if (System.nanoTime() - blockedAt > 0) {
                    throw new AssertionError(what + " has not finished after " + (blocked.toMillis() >= 1000
                            ? blocked.toSeconds() + " s" : blocked.toMillis() + " ms") + ", having"
                            + " used " + millis(cpu) + " ms of CPU time: it is blocked, not computing");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
        Throwable t = failure.get();
        if (t instanceof AssertionError a) {
            throw a;
        }
        if (t != null) {
            throw new AssertionError(what + " threw " + t, t);
        }
        if (used.get() > limit) {
            throw new AssertionError(what + " used " + millis(used.get()) + " ms of CPU time, more than "
                    + millis(limit) + " ms");
        }
        return result.get();
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
