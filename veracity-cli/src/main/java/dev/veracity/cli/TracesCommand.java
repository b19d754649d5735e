package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./veracity traces}: list runs, print a run's accounting, export a run's calls as JSONL. A run is named by its
 * folder (an eval run keeps its traces in {@code RUN_DIR/traces.db}), its trace run id, or a prefix of the id that no
 * other run shares, as git takes a commit's short hash.
 */
@Command(name = "traces", mixinStandardHelpOptions = true, description = {"Read the trace database.",
        "RUN is a run folder (its traces.db: `veracity traces stats runs/nq`), a run id, or a prefix of one that no other"
                + " run shares."},
        subcommands = {TracesCommand.Runs.class, TracesCommand.Stats.class, TracesCommand.Export.class})
final class TracesCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The trace file: --trace-file, else VERACITY_TRACE_FILE or the config file, else the default. */
    static final class FileOption {
        @Option(names = "--trace-file", paramLabel = "FILE", description = "Trace database (default: a RUN folder's"
                + " traces.db, else .veracity/traces.db).")
        Path file;

        TraceStore open() {
            return open(null);
        }

        /** The trace file of {@code run} when it is a run folder (and no --trace-file was given), else as above. */
        /** Whether {@code run} names a run folder whose traces.db is read (no --trace-file given). */
        boolean folder(String run) {
            return file == null && run != null && Files.isDirectory(Path.of(run));
        }

        TraceStore open(String run) {
            if (folder(run)) {
                Path folder = Path.of(run);
                Path own = folder.resolve("traces.db");
                if (!Files.isRegularFile(own)) {
                    throw new IllegalArgumentException(folder + " is a folder without traces.db; give a run folder (eval"
                            + " --out), or a run id with --trace-file");
                }
                return TraceStore.open(own);
            }
            Path f = file != null ? file : VeracityConfig.fromEnvironment(Map.of()).traceFile();
            if (!Files.exists(f)) {
                throw new IllegalArgumentException("no trace database at " + f + "; run a command that calls a model"
                        + " first, or pass --trace-file");
            }
            return TraceStore.open(f);
        }
    }

    @Command(name = "runs", mixinStandardHelpOptions = true, description = "List the runs, oldest first, with their accounting.")
    static final class Runs implements Callable<Integer> {
        @CommandLine.Mixin
        FileOption file;

        @Parameters(arity = "0..1", paramLabel = "RUN_DIR", description = "A run folder: the runs of its traces.db.")
        String folder;

        @Override
        public Integer call() {
            try (TraceStore store = file.open(folder)) {
                for (String run : store.runs()) {
                    System.out.println(run + "  " + summary(CallStats.ofRun(store.calls(run))));
                }
            }
            return 0;
        }
    }

    @Command(name = "stats", mixinStandardHelpOptions = true, description = "Per-question and per-run accounting of one run.")
    static final class Stats implements Callable<Integer> {
        @CommandLine.Mixin
        FileOption file;

        @Parameters(paramLabel = "RUN", description = "Run folder, run id or a unique prefix of one (see 'traces runs').")
        String run;

        @Override
        public Integer call() {
            try (TraceStore store = file.open(run)) {
                List<String> ids = runIds(store, run, file.folder(run));
                List<CallRecord> calls = ids.stream().flatMap(id -> store.calls(id).stream()).toList();
                CallStats.byQuestion(calls).forEach((q, s) -> System.out.println("question " + (q.isEmpty() ? "-" : q)
                        + "  " + summary(s)));
                System.out.println("run " + String.join(" + ", ids) + "  " + summary(CallStats.ofRun(calls)));
            }
            return 0;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true, description = "Write a run's calls as JSON lines.")
    static final class Export implements Callable<Integer> {
        @CommandLine.Mixin
        FileOption file;

        @Parameters(paramLabel = "RUN", description = "Run folder, run id or a unique prefix of one (see 'traces runs').")
        String run;

        @Option(names = "--out", paramLabel = "FILE", description = "Output file (default: standard output).")
        Path out;

        @Override
        public Integer call() throws IOException {
            try (TraceStore store = file.open(run)) {
                List<String> ids = runIds(store, run, file.folder(run));
                if (out == null) {
                    Writer w = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
                    for (String id : ids) {
                        store.exportJsonl(id, w);
                    }
                    w.flush();
                } else {
                    try (Writer w = Files.newBufferedWriter(out)) {
                        int n = 0;
                        for (String id : ids) {
                            n += store.exportJsonl(id, w);
                        }
                        System.err.println("wrote " + n + " calls to " + out);
                    }
                }
            }
            return 0;
        }
    }

    /**
     * The trace runs {@code run} names: a run folder's every run (a resumed eval adds one per resume), else the run of
     * that id, else the one run whose id starts with it; none, or a prefix of several, is an error that lists them.
     */
    static List<String> runIds(TraceStore store, String run, boolean folder) {
        List<String> all = store.runs();
        if (folder) {
            if (all.isEmpty()) {
                throw new IllegalArgumentException("no calls in " + store.file());
            }
            return all;
        }
        if (all.contains(run)) {
            return List.of(run);
        }
        List<String> prefixed = all.stream().filter(id -> id.startsWith(run)).toList();
        if (prefixed.size() == 1) {
            return prefixed;
        }
        if (prefixed.isEmpty()) {
            throw new IllegalArgumentException("no run '" + run + "' in " + store.file() + "; "
                    + dev.veracity.plugin.NearestNames.didYouMean(run, all)
                    + "'veracity traces runs' lists the runs, or give the run's folder");
        }
        throw new IllegalArgumentException("'" + run + "' starts " + prefixed.size() + " runs' ids in " + store.file()
                + ": " + String.join(", ", prefixed.stream().limit(5).toList()) + (prefixed.size() > 5 ? ", ..." : "")
                + "; give more of the id");
    }

    /** Calls are requests, samples their completions; tokens are those used, the cache's share apart. */
    static String summary(CallStats s) {
        return String.format(Locale.ROOT, "calls %d (failed %d, cache hits %d, retries %d), samples %d (%d from the"
                        + " cache), tokens used %d (prompt %d, completion %d; %d from the cache), wall %.1f ms, critical"
                        + " path %.1f ms, model %s", s.calls(), s.failedCalls(), s.cacheHits(), s.retries(), s.samples(),
                s.cachedSamples(), s.usedTokens(), s.usedPromptTokens(), s.usedCompletionTokens(),
                s.cachedPromptTokens() + s.cachedCompletionTokens(), s.wall().toNanos() / 1e6,
                s.criticalPath().toNanos() / 1e6, s.modelTime().map(d -> String.format(Locale.ROOT, "%.1f ms",
                        d.toNanos() / 1e6)).orElse("n/a (a cache entry without its latency)"));
    }
}
