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

/** {@code ./veracity traces}: list runs, print a run's accounting, export a run's calls as JSONL. */
@Command(name = "traces", mixinStandardHelpOptions = true, description = "Read the trace database.",
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
        @Option(names = "--trace-file", paramLabel = "FILE", description = "Trace database (default .veracity/traces.db).")
        Path file;

        TraceStore open() {
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

        @Override
        public Integer call() {
            try (TraceStore store = file.open()) {
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

        @Parameters(paramLabel = "RUN", description = "Run id (see 'traces runs').")
        String run;

        @Override
        public Integer call() {
            try (TraceStore store = file.open()) {
                List<CallRecord> calls = requireRun(store, run);
                CallStats.byQuestion(calls).forEach((q, s) -> System.out.println("question " + (q.isEmpty() ? "-" : q)
                        + "  " + summary(s)));
                System.out.println("run " + run + "  " + summary(CallStats.ofRun(calls)));
            }
            return 0;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true, description = "Write a run's calls as JSON lines.")
    static final class Export implements Callable<Integer> {
        @CommandLine.Mixin
        FileOption file;

        @Parameters(paramLabel = "RUN", description = "Run id (see 'traces runs').")
        String run;

        @Option(names = "--out", paramLabel = "FILE", description = "Output file (default: standard output).")
        Path out;

        @Override
        public Integer call() throws IOException {
            try (TraceStore store = file.open()) {
                requireRun(store, run);
                if (out == null) {
                    Writer w = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
                    store.exportJsonl(run, w);
                    w.flush();
                } else {
                    try (Writer w = Files.newBufferedWriter(out)) {
                        int n = store.exportJsonl(run, w);
                        System.err.println("wrote " + n + " calls to " + out);
                    }
                }
            }
            return 0;
        }
    }

    private static List<CallRecord> requireRun(TraceStore store, String run) {
        List<CallRecord> calls = store.calls(run);
        if (calls.isEmpty()) {
            throw new IllegalArgumentException("no calls for run '" + run + "' in " + store.file()
                    + "; 'veracity traces runs' lists the runs");
        }
        return calls;
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
