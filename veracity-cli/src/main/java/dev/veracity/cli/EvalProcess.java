package dev.veracity.cli;

import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceStore;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.LongSummaryStatistics;

/**
 * A {@code veracity eval} run in a process of its own, timed from outside as a user waits for it: the launch taken just
 * before the process starts, its first and last model calls from its own {@code traces.db} (the moment each was
 * submitted and each ended, on the same wall clock), and its end when {@code waitFor} returns. Started through the
 * launcher script {@code ./veracity} when one is beside the CLI's jar (its staleness check and JDK detection included),
 * else as the launcher would start the JVM (this JVM's flags and the start-up cache).
 */
final class EvalProcess {

    /**
     * The times of one process, microseconds since the epoch.
     *
     * @param exitCode  the process's exit status
     * @param launched  just before the process started
     * @param firstCall the first model call's submission (0 when none was traced)
     * @param lastCall  the last model call's end (0 when none was traced)
     * @param exited    when the process was seen gone
     * @param calls     the model calls traced
     */
    record Times(int exitCode, long launched, long firstCall, long lastCall, long exited, int calls) {

        /** Launch to the first model call, ms. */
        double firstCallMs() {
            return (firstCall - launched) / 1e3;
        }

        /** The last model call's end to the process gone, ms. */
        double exitMs() {
            return (exited - lastCall) / 1e3;
        }

        /** Launch to the process gone, ms. */
        double wholeMs() {
            return (exited - launched) / 1e3;
        }
    }

    private EvalProcess() {
    }

    /** The launcher script beside this build ({@code veracity-cli/target/veracity-cli.jar} -> {@code ./veracity}), or null. */
    static Path launcher() {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith("veracity-cli.jar")) {
                Path script = Path.of(entry).toAbsolutePath().normalize().getParent().getParent().resolveSibling("veracity");
                return Files.isRegularFile(script) && Files.isExecutable(script) ? script : null;
            }
        }
        return null;
    }

    /**
     * The command that starts {@code veracity} with {@code args}: the launcher script when {@code viaLauncher} and one
     * is found, else a JVM with this one's flags (the launcher's), the start-up cache when it was made.
     */
    static List<String> command(boolean viaLauncher, List<String> args) {
        List<String> cmd = new ArrayList<>();
        Path script = viaLauncher ? launcher() : null;
        if (script != null) {
            cmd.add(script.toString());
        } else {
            cmd.add(ProcessHandle.current().info().command().orElse("java"));
            // this JVM's flags, as the launcher gives them to eval: bench may run with the Vector API module, eval does
            // not (and the start-up cache is refused by a JVM whose modules differ from the training run's)
            ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                    .filter(a -> !a.startsWith("--add-modules") && !a.startsWith("-Djdk.module.addmods"))
                    .forEach(cmd::add);
            Path cache = startupCache();
            if (cache != null && cmd.stream().noneMatch(a -> a.startsWith("-XX:AOTCache"))) {
                cmd.addAll(List.of("-XX:AOTCache=" + cache, "-Xlog:aot=off", "-Xlog:cds=off"));
            }
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), VeracityCli.class.getName()));
        }
        cmd.addAll(args);
        return cmd;
    }

    /** Whether {@link #command} starts the launcher script. */
    static boolean throughLauncher(List<String> cmd) {
        return !cmd.isEmpty() && cmd.getFirst().endsWith(File.separator + "veracity");
    }

    /** The launcher's start-up cache beside the CLI jar, when this JDK can use one (25+) and it was made. */
    static Path startupCache() {
        if (Runtime.version().feature() < 25) {
            return null;
        }
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith("veracity-cli.jar")) {
                Path cache = Path.of(entry).toAbsolutePath().resolveSibling("veracity.aot");
                return Files.isRegularFile(cache) ? cache : null;
            }
        }
        return null;
    }

    /**
     * Runs {@code cmd} (an eval writing its run to {@code runDir}), its output to {@code log}, and reads the times of its
     * model calls from the run's traces.
     */
    static Times run(List<String> cmd, Path runDir, Path log) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        long launched = micros();
        Process p = pb.start();
        int code = p.waitFor();
        long exited = micros();
        long first = 0;
        long last = 0;
        int calls = 0;
        Path db = runDir.resolve("traces.db");
        if (Files.isRegularFile(db)) {
            try (TraceStore traces = TraceStore.open(db)) {
                List<CallRecord> all = traces.runs().stream().flatMap(r -> traces.calls(r).stream()).toList();
                LongSummaryStatistics submitted = all.stream().mapToLong(CallRecord::submittedMicros).summaryStatistics();
                LongSummaryStatistics ended = all.stream().mapToLong(CallRecord::endedMicros).summaryStatistics();
                calls = all.size();
                first = calls == 0 ? 0 : submitted.getMin();
                last = calls == 0 ? 0 : ended.getMax();
            }
        }
        return new Times(code, launched, first, last, exited, calls);
    }

    /** Now, microseconds since the epoch (the clock traces.db's call times are on). */
    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
}
