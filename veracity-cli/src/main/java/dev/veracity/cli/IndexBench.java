package dev.veracity.cli;

import dev.veracity.retrieval.bench.SyntheticCorpus;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench index}: BM25 indexing at Wikipedia scale through {@code veracity index} itself. Writes a
 * generated corpus in DPR's {@code psgs_w100.tsv} format, indexes it as {@code index --format dpr-tsv} does (progress
 * bar, commits), and prints passages/s, the heap's peak, the index size and what that makes for DPR's 21,015,324
 * passages. Run it with a capped heap ({@code JAVA_TOOL_OPTIONS=-Xmx4g}) to check that memory stays bounded.
 */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = {"Generate a DPR-format corpus (psgs_w100.tsv: id, text, title; 100-word passages) and BM25-index it"
                + " with ./veracity index; print passages/s, heap peak, index size and the extrapolation to 21M passages.",
                "Cap the heap to check bounded memory: JAVA_TOOL_OPTIONS=-Xmx4g ./veracity bench index --passages 5000000"})
final class IndexBench implements Callable<Integer> {

    /** Passages in DPR's Wikipedia (psgs_w100.tsv, December 2018 dump). */
    static final long DPR_PASSAGES = 21_015_324;

    @Option(names = "--passages", defaultValue = "1000000", description = "Generated passages (default ${DEFAULT-VALUE}).")
    long passages;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the corpus (psgs_w100.tsv) and the index (index/) go (default: a temporary directory);"
                    + " both deleted after unless --keep.")
    Path workDir;

    @Option(names = "--keep", description = "Keep the generated corpus and the index.")
    boolean keep;

    @Override
    public Integer call() throws Exception {
        if (passages < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--passages must be >= 1");
        }
        Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("veracity-bench-index");
        Path corpus = dir.resolve("psgs_w100.tsv");
        Path index = dir.resolve("index");
        try {
            long g0 = System.nanoTime();
            SyntheticCorpus.wikipedia().writeDprTsv(corpus, passages);
            System.out.printf(Locale.ROOT, "Generated %,d passages (DPR psgs_w100.tsv format, %,d MB) in %.1f s%n",
                    passages, Files.size(corpus) >> 20, (System.nanoTime() - g0) / 1e9);
            System.gc(); // the peak below is the indexing's, not the generator's
            resetPeaks();
            AfterGc afterGc = new AfterGc();
            long t0 = System.nanoTime();
            int rc = new CommandLine(new IndexCommand()).execute("--corpus", corpus.toString(), "--format", "dpr-tsv",
                    "--out", index.toString());
            double seconds = (System.nanoTime() - t0) / 1e9;
            afterGc.close();
            if (rc != 0) {
                return rc;
            }
            long heapPeak = heapPeak();
            long size = sizeOf(index);
            double rate = passages / seconds;
            System.out.printf(Locale.ROOT, "BM25 indexing: %,d passages in %.1f s = %,.0f passages/s; heap %,d MB max:"
                            + " peak in use %,d MB (garbage included), peak after a GC %,d MB (%d GCs); peak RSS %s;"
                            + " index %,d MB (%,.0f bytes per passage); %d cores%n", passages, seconds, rate,
                    Runtime.getRuntime().maxMemory() >> 20, heapPeak >> 20, afterGc.peak() >> 20, afterGc.count(),
                    peakRss(), size >> 20, (double) size / passages, Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "Extrapolated to DPR's %,d passages: %.1f h, index about %,.1f GB"
                            + " (linear in passages; Lucene's merges make the real rate somewhat lower)%n", DPR_PASSAGES,
                    DPR_PASSAGES / rate / 3600, (double) size / passages * DPR_PASSAGES / (1L << 30));
            return 0;
        } finally {
            if (!keep) {
                delete(index);
                Files.deleteIfExists(corpus);
                if (workDir == null) {
                    Files.deleteIfExists(dir);
                }
            }
        }
    }

    /**
     * The heap in use just after each garbage collection (what was still reachable, plus old garbage a young
     * collection leaves), from the collectors' notifications: the heap the work needs, where the peak in use mostly
     * shows how far the collector let garbage grow.
     */
    private static final class AfterGc implements AutoCloseable {
        private final java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        private final javax.management.NotificationListener listener = (n, handback) -> {
            if (n.getType().equals(com.sun.management.GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                var info = com.sun.management.GarbageCollectionNotificationInfo.from(
                        (javax.management.openmbean.CompositeData) n.getUserData());
                long used = 0;
                for (MemoryPoolMXBean p : heapPools()) {
                    var after = info.getGcInfo().getMemoryUsageAfterGc().get(p.getName());
                    used += after == null ? 0 : after.getUsed();
                }
                peak.accumulateAndGet(used, Math::max);
                count.incrementAndGet();
            }
        };

        AfterGc() {
            ManagementFactory.getGarbageCollectorMXBeans().forEach(gc ->
                    ((javax.management.NotificationEmitter) gc).addNotificationListener(listener, null, null));
        }

        long peak() {
            return peak.get();
        }

        int count() {
            return count.get();
        }

        @Override
        public void close() {
            for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                try {
                    ((javax.management.NotificationEmitter) gc).removeNotificationListener(listener);
                } catch (javax.management.ListenerNotFoundException e) {
                    // not added to this one
                }
            }
        }
    }

    private static List<MemoryPoolMXBean> heapPools() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP).toList();
    }

    private static void resetPeaks() {
        heapPools().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    /** The sum of the heap pools' peaks: an upper bound of the heap used at any one time. */
    private static long heapPeak() {
        return heapPools().stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    }

    /** The process's peak resident memory (Linux's VmHWM), or "n/a". */
    private static String peakRss() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(l -> l.startsWith("VmHWM:")).map(l -> l.substring(6).strip()).findFirst().orElse("n/a");
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
