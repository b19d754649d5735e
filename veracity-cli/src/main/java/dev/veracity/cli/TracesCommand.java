package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.report.TextTable;
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

        /** Whether {@code run} names a run folder whose traces.db is read (no --trace-file given). */
        boolean folder(String run) {
            return file == null && run != null && Files.isDirectory(Path.of(run));
        }

        /** The trace file of {@code run} when it is a run folder (and no --trace-file was given), else as above. */
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
                StatsTable table = new StatsTable("run");
                for (String run : store.runs()) {
                    table.add(run, CallStats.ofRun(store.calls(run)));
                }
                System.out.print(table.text(Terminal.columns()));
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
                StatsTable table = new StatsTable("question");
                CallStats.byQuestion(calls).forEach((q, s) -> table.add(q.isEmpty() ? "-" : q, s));
                // the run's own row last, named as the runs are ("run ID")
                table.add("run " + String.join(" + ", ids), CallStats.ofRun(calls));
                System.out.print(table.text(Terminal.columns()));
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

    /**
     * The accounting of runs or questions as a table fitted to the terminal: calls are requests, samples their
     * completions; tokens are those used (the cache's share apart); wall and critical path in ms. At 80 columns the
     * breakdowns (retries, samples, prompt and completion tokens, the cache's share, model time) go first.
     */
    static final class StatsTable {
        private final TextTable table;

        StatsTable(String what) {
            List<TextTable.Column> columns = List.of(TextTable.Column.text(what, 12, 9),
                    TextTable.Column.figure("calls"), TextTable.Column.figure("failed").dropAt(5),
                    TextTable.Column.figure("cache hits").dropAt(4), TextTable.Column.figure("retries").dropAt(3),
                    TextTable.Column.figure("samples").dropAt(2), TextTable.Column.figure("cached samples").dropAt(1),
                    TextTable.Column.figure("tokens used"), TextTable.Column.figure("prompt").dropAt(2),
                    TextTable.Column.figure("completion").dropAt(2), TextTable.Column.figure("cached tokens").dropAt(1),
                    TextTable.Column.figure("wall ms"), TextTable.Column.figure("critical path ms"),
                    TextTable.Column.figure("model ms").dropAt(6));
            this.table = new TextTable(columns);
        }

        void add(String name, CallStats s) {
            table.row(List.of(name, Integer.toString(s.calls()), Integer.toString(s.failedCalls()),
                    Integer.toString(s.cacheHits()), Integer.toString(s.retries()), Integer.toString(s.samples()),
                    Integer.toString(s.cachedSamples()), Long.toString(s.usedTokens()), Long.toString(s.usedPromptTokens()),
                    Long.toString(s.usedCompletionTokens()), Long.toString(s.cachedPromptTokens() + s.cachedCompletionTokens()),
                    ms(s.wall().toNanos()), ms(s.criticalPath().toNanos()),
                    s.modelTime().map(d -> ms(d.toNanos())).orElse("n/a"))); // n/a: a cache entry without its latency
        }

        /** The table at {@code width}, and a line naming the columns left out. */
        String text(int width) {
            TextTable.Fitted f = table.render(width);
            String note = f.note(width, null);
            return f.text() + (note.isEmpty() ? "" : TextTable.wrap(note, width));
        }

        private static String ms(long nanos) {
            return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
        }
    }
}
