package dev.veracity.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Stops a command whose heap is too small, with one line that says so and what to pass, instead of letting the
 * collector run for minutes: a listener on the garbage collectors' notifications that fires when collections took
 * nearly all of the last seconds ({@link #BUSY} of {@link #WINDOW_MS}) and the last full collection left the old
 * generation nearly full ({@link #FULL}), which is a heap that the work does not fit; and the same line for an
 * {@link OutOfMemoryError} that reaches the command or a thread. Installed for every command by {@link VeracityCli#main}.
 */
final class HeapGuard {

    /** The exit code of a command stopped for want of heap. */
    static final int EXIT = 3;

    /** The span of wall time whose share spent collecting is judged. */
    static final long WINDOW_MS = 5_000;
    /** The share of {@link #WINDOW_MS} spent collecting that is "nearly all the time". */
    static final double BUSY = 0.9;
    /** How full the largest heap pool is after a full collection that "frees little". */
    static final double FULL = 0.9;

    private static volatile String command = "veracity";
    private static volatile boolean installed;
    private static volatile boolean stopping;

    /** Collections of the last {@link #WINDOW_MS}: start and end, in ms of the JVM's uptime. */
    private static final Deque<long[]> RECENT = new ArrayDeque<>();
    private static double lastFullAfter;

    private HeapGuard() {
    }

    /** Watches the collectors from now on, naming {@code name} (e.g. "compare") in the line; once per JVM. */
    static synchronized void install(String name) {
        command = name == null || name.isBlank() ? "veracity" : "veracity " + name;
        if (installed) {
            return;
        }
        installed = true;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((n, handback) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                        collected(GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()));
                    }
                }, null, null);
            }
        }
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (outOfMemory(e)) {
                stop("an OutOfMemoryError in thread " + t.getName());
            } else if (previous != null) {
                previous.uncaughtException(t, e);
            } else {
                e.printStackTrace();
            }
        });
    }

    /** Whether {@code e} or one of its causes is an {@link OutOfMemoryError} of the heap. */
    static boolean outOfMemory(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }

    private static synchronized void collected(GarbageCollectionNotificationInfo info) {
        long start = info.getGcInfo().getStartTime();
        long end = info.getGcInfo().getEndTime();
        RECENT.addLast(new long[] {start, end});
        if (info.getGcAction().contains("major")) {
            lastFullAfter = fullest(info.getGcInfo().getMemoryUsageAfterGc());
        }
        long from = end - WINDOW_MS;
        while (!RECENT.isEmpty() && RECENT.peekFirst()[1] <= from) {
            RECENT.removeFirst();
        }
        if (from < 0) {
            return; // the JVM has not run a whole window yet
        }
        long busy = 0;
        for (long[] c : RECENT) {
            busy += c[1] - Math.max(c[0], from);
        }
        if (busy >= BUSY * WINDOW_MS && lastFullAfter >= FULL) {
            stop(String.format(Locale.ROOT, "the collector ran %d%% of the last %d s and freed little",
                    Math.round(100.0 * busy / WINDOW_MS), WINDOW_MS / 1000));
        }
    }

    /** How full the largest pool with a limit is (the old generation under the parallel and serial collectors). */
    private static double fullest(Map<String, MemoryUsage> after) {
        MemoryUsage largest = null;
        for (MemoryUsage u : after.values()) {
            if (u.getMax() > 0 && (largest == null || u.getMax() > largest.getMax())) {
                largest = u;
            }
        }
        return largest == null ? 0 : (double) largest.getUsed() / largest.getMax();
    }

    /** The heap the JVM was given (-Xmx, whole: the collector's own view leaves out a survivor space). */
    static long maxHeapBytes() {
        try {
            return Long.parseLong(ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .getVMOption("MaxHeapSize").getValue());
        } catch (RuntimeException e) {
            return Runtime.getRuntime().maxMemory(); // another JVM
        }
    }

    /** The line: the command, the heap it had and what to pass. */
    static String message(String why) {
        long maxMb = maxHeapBytes() >> 20;
        long suggest = Math.max(256, Long.highestOneBit(Math.max(1, maxMb)) * 4);
        return command + ": the heap is too small for this work (" + maxMb + " MB; " + why + "); run it again with a"
                + " larger one, e.g. JAVA_TOOL_OPTIONS=-Xmx" + suggest + "m";
    }

    /**
     * Prints the line and ends the process with {@link #EXIT}, once: from a thread of its own, so that the collector's
     * notification thread is not held; halted when shutting down takes longer than a few seconds (a hook that needs
     * the heap that is missing).
     */
    static void stop(String why) {
        synchronized (HeapGuard.class) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        System.err.println(message(why));
        System.err.flush();
        // not a daemon: a main thread that dies of the error does not end the process with its own code first
        new Thread(() -> System.exit(EXIT), "heap-guard-exit").start();
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(EXIT);
        }, "heap-guard-halt");
        halt.setDaemon(true);
        halt.start();
    }
}
