package dev.veracity.cli;

import java.util.Properties;

/**
 * How many platform threads carry the virtual threads of a command that waits on model servers. Virtual threads are
 * not preempted: a question's CPU work (reading its documents, building its passages' index, writing its result)
 * holds its carrier until it is done, and a model's answer that arrives meanwhile waits for a carrier before its
 * question can send the next call, with the client's slot held. With the JDK's default, one carrier per core, a burst
 * of such work (the first questions of a run, all starting at once) stretched every call it overlapped. With twice as
 * many carriers as cores the operating system shares the cores among them, and an answer's short work runs within its
 * time slice: bench run, C-3PO over 200 RAMDocs questions on 2 cores at 100 ms a call, 1.17-1.20x the ideal with one
 * carrier per core, 1.13x with two (medians of 9 runs each, interleaved); MADAM-RAG and Reasoning Court unchanged or a
 * hundredth better.
 *
 * <p>The launcher asks for it ({@value #PER_CORE}) for the commands that wait on model servers, those it also runs on
 * the JIT's first tier; {@link VeracityCli#main} applies it before any virtual thread exists (the scheduler reads its
 * setting once, when the first one starts). A parallelism the user set ({@value #PARALLELISM}, e.g. in
 * {@code JAVA_TOOL_OPTIONS}) is kept.
 */
final class Carriers {

    /** The launcher's request: carriers per core. */
    static final String PER_CORE = "veracity.carriersPerCore";
    /** The JDK's setting of the virtual-thread scheduler's parallelism. */
    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
    /** More carriers than this per core only add switching. */
    private static final int MOST_PER_CORE = 8;

    private Carriers() {
    }

    /**
     * Sets {@value #PARALLELISM} to {@value #PER_CORE} times {@code cores}, unless it is set already or the request is
     * absent or not a whole number from 1 to {@value #MOST_PER_CORE} (then the JDK's default stands).
     */
    static void apply(Properties properties, int cores) {
        String perCore = properties.getProperty(PER_CORE);
        if (perCore == null || properties.getProperty(PARALLELISM) != null) {
            return;
        }
        int n;
        try {
            n = Integer.parseInt(perCore.strip());
        } catch (NumberFormatException e) {
            return;
        }
        if (n < 1 || n > MOST_PER_CORE) {
            return;
        }
        properties.setProperty(PARALLELISM, Integer.toString(n * Math.max(1, cores)));
    }
}
