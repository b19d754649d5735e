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
 * collector run for minutes: a listener on the garbage collectors' notifications that fires when {@link #FULL_RUNS}
 * full collections in a row came within {@link #WINDOW_MS} and each left the old generation at least {@link #FULL}
 * full (the collector runs over and over and frees little: a heap the work does not fit, which the JVM's own overhead
 * limit lets run while each collection frees more than 2%); and the same line for an {@link OutOfMemoryError} that
 * reaches the command or a thread. Installed for every command by {@link VeracityCli#main}.
 */
final class HeapGuard {

    /** The exit code of a command stopped for want of heap. */
    static final int EXIT = 3;

    /** Full collections in a row that are judged together. */
    static final int FULL_RUNS = 10;
    /** The span they must come within. */
    static final long WINDOW_MS = 5_000;
    /** How full each must leave the largest heap pool (the old generation) to have "freed little". */
    static final double FULL = 0.9;

    private static volatile String command = "veracity";
    private static volatile boolean installed;
    private static volatile boolean stopping;
    /**
     * Room kept back for the line and the exit: let go first when the heap runs out, so that the handler that prints
     * the line does not run out itself (it did, once in a fresh clone's CI: the JVM then ended with its own trace, exit 1).
     */
    @SuppressWarnings("unused")
    private static volatile byte[] reserve;

    /**
     * The line for an {@link OutOfMemoryError}, made beforehand: written when making it then would need the heap that
     * ran out. At first with the collector's view of the heap, then (once the beans are loaded) with -Xmx itself.
     */
    private static volatile byte[] fallback =
            "veracity: the heap is too small for this work; run it again with a larger one\n".getBytes();

    /** The last full collections: start and end in ms of the JVM's uptime, and how full each left the old generation. */
    private static final Deque<double[]> FULLS = new ArrayDeque<>();

    private HeapGuard() {
    }

    /**
     * Watches the collectors from now on, naming {@code name} (e.g. "compare") in the line; once per JVM. The
     * listeners are registered from a thread of their own: the management beans take 50 to 200 ms to load, which the
     * command's start does not wait for (a heap that is too small takes longer than that to show).
     */
    static synchronized void install(String name) {
        command = name == null || name.isBlank() ? "veracity" : "veracity " + name;
        if (installed) {
            return;
        }
        installed = true;
        reserve = new byte[1 << 20];
        fallback = line("an OutOfMemoryError", Runtime.getRuntime().maxMemory());
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (outOfMemory(e)) {
                reserve = null;
                stop("an OutOfMemoryError in thread " + t.getName());
            } else if (previous != null) {
                previous.uncaughtException(t, e);
            } else {
                e.printStackTrace();
            }
        });
        Thread.ofPlatform().daemon().name("heap-guard").start(HeapGuard::listen);
    }

    /**
     * Registers the listener on every collector, and makes the fallback line with the heap's exact size. A heap that
     * runs out while the beans load leaves the work unwatched: the error the work itself then gets says it (this
     * thread's own error would race the work for the room let go, and lose, printing the JVM's trace; CI saw it once).
     */
    private static void listen() {
        try {
            register();
            fallback = line("an OutOfMemoryError", maxHeapBytes());
        } catch (OutOfMemoryError e) {
            // unwatched: see above
        }
    }

    private static void register() {
        heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
                .map(java.lang.management.MemoryPoolMXBean::getName).collect(java.util.stream.Collectors.toSet());
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((n, handback) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                        collected(GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()));
                    }
                }, null, null);
            }
        }
    }

    /**
     * Whether {@code e} or one of its causes is an {@link OutOfMemoryError} of the heap. Not the others: a file that
     * cannot be mapped ("Map failed"), a thread that cannot be made, direct buffers; a larger heap would not help
     * them (a mapping would get less address space), and their own message says more.
     */
    static boolean outOfMemory(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError oom && ofTheHeap(oom)) {
                return true;
            }
        }
        return false;
    }

    /** HotSpot's messages for the heap's errors. */
    static boolean ofTheHeap(OutOfMemoryError e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("Java heap space") || m.startsWith("GC overhead limit exceeded")
                || m.startsWith("Requested array size exceeds VM limit");
    }

    /** Whether the guard has printed its line and is ending the process (its exit code is then {@link #EXIT}). */
    static boolean stopping() {
        synchronized (HeapGuard.class) {
            return stopping;
        }
    }

    private static synchronized void collected(GarbageCollectionNotificationInfo info) {
        if (!info.getGcAction().contains("major")) {
            return;
        }
        FULLS.addLast(new double[] {info.getGcInfo().getStartTime(), info.getGcInfo().getEndTime(),
                fullest(info.getGcInfo().getMemoryUsageAfterGc())});
        if (FULLS.size() > FULL_RUNS) {
            FULLS.removeFirst();
        }
        double span = FULLS.peekLast()[1] - FULLS.peekFirst()[0];
        double busy = 0;
        for (double[] c : FULLS) {
            if (c[2] < FULL) {
                return;
            }
            busy += c[1] - c[0];
        }
        if (FULLS.size() == FULL_RUNS && span <= WINDOW_MS) {
            stop(String.format(Locale.ROOT, "%d full collections in %.1f s, %d%% of it collecting, each leaving the"
                    + " heap over %d%% full", FULL_RUNS, span / 1000, Math.round(100 * busy / Math.max(1, span)),
                    Math.round(100 * FULL)));
        }
    }

    /** The heap's pools (the notifications carry the metaspace's and the code cache's too). */
    private static volatile java.util.Set<String> heapPools = java.util.Set.of();

    /** How full the largest heap pool is (the old generation under the parallel and serial collectors). */
    private static double fullest(Map<String, MemoryUsage> after) {
        MemoryUsage largest = null;
        for (Map.Entry<String, MemoryUsage> e : after.entrySet()) {
            MemoryUsage u = e.getValue();
            if (heapPools.contains(e.getKey()) && u.getMax() > 0 && (largest == null || u.getMax() > largest.getMax())) {
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
        return message(why, maxHeapBytes());
    }

    private static String message(String why, long maxBytes) {
        long maxMb = maxBytes >> 20;
        long suggest = Math.max(256, Long.highestOneBit(Math.max(1, maxMb)) * 4);
        return command + ": the heap is too small for this work (" + maxMb + " MB; " + why + "); run it again with a"
                + " larger one, e.g. JAVA_TOOL_OPTIONS=-Xmx" + suggest + "m";
    }

    /** The line and its end of line, encoded: what {@link #end} writes without allocating. */
    private static byte[] line(String why, long maxBytes) {
        return (message(why, maxBytes) + System.lineSeparator()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Prints the line and ends the process with {@link #EXIT}, once. Making the line may itself run out of heap
     * (another thread took the room let go): then the line made beforehand, {@link #fallback}, which needs none.
     */
    static void stop(String why) {
        byte[] line;
        try {
            line = line(why, maxHeapBytes());
        } catch (OutOfMemoryError e) {
            line = fallback;
        }
        end(line);
    }

    /**
     * Writes {@code line} and ends the process with {@link #EXIT}, once: from a thread of its own, so that the
     * collector's notification thread is not held; halted when shutting down takes longer than a few seconds (a hook
     * that needs the heap that is missing), or at once when not even a thread can be made.
     */
    private static void end(byte[] line) {
        synchronized (HeapGuard.class) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        reserve = null;
        System.err.write(line, 0, line.length);
        System.err.flush();
        try {
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
        } catch (OutOfMemoryError e) {
            Runtime.getRuntime().halt(EXIT);
        }
    }
}
