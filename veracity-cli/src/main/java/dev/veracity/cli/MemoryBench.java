package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.report.ComparisonTable;
import dev.veracity.eval.report.RunDir;
import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.eval.run.RunConfig;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.TraceStore;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code ./veracity bench memory}: an eval of many questions (a generated RAMDocs-format file) through the evaluation
 * runner as {@code veracity eval} runs it (results file, summary, trace store, response cache) against the in-process
 * simulator at zero latency, printing the heap in use after a full GC and the RSS at 10%, 50% and 100% of the run;
 * then the commands that read the run, each measured the same way: eval's closing table, {@code compare} against a
 * second run of the same questions (twice) and {@code report} of both; then the heap two runs and a baseline hold per
 * question (loaded at a tenth and at all of the questions) and {@code compare} and {@code report} as users run them, in
 * JVMs of their own at {@value #SMALL_HEAP_MB} MB, each against its target ({@link BenchTarget}). Constant memory
 * means the heap after GC does not grow with the count: {@code JAVA_TOOL_OPTIONS=-Xmx256m ./veracity bench memory}.
 */
@Command(name = "memory", mixinStandardHelpOptions = true,
        description = "An eval of many generated questions, then its closing table, compare and report: heap after GC"
                + " and RSS as the count grows and after each reader (constant memory).")
final class MemoryBench implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @picocli.CommandLine.Mixin
    BenchLoad.Questions questions = new BenchLoad.Questions(100000);

    @Option(names = "--method", defaultValue = "standard-rag", description = "A cheap method (default ${DEFAULT-VALUE}).")
    String method;

    @Option(names = "--questions-at-once", defaultValue = "16", description = "Questions answered at once (default ${DEFAULT-VALUE}).")
    int questionsAtOnce;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the dataset and the run go (default: a new temporary folder).")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (questions.count < 10 || questionsAtOnce < 1) {
            throw new IllegalArgumentException("--questions must be >= 10 and --questions-at-once positive");
        }
        QaMethod m = Methods.byName(method);
        if (m.needs(Capability.RETRIEVER) || m.needs(Capability.EMBEDDER)) {
            throw new IllegalArgumentException("method " + method + " needs an index or an embedder: pick a cheap one"
                    + " (no-rag, standard-rag)");
        }
        Path root = out != null ? out : Files.createTempDirectory("veracity-memory");
        Path data = generate(root.resolve("questions.jsonl"), questions.count);
        Path run = root.resolve("run");
        RunConfig.clear(run);
        Files.deleteIfExists(root.resolve("cache.db"));
        int[] checkpoints = {questions.count / 10, questions.count / 2, questions.count};
        long[][] figures = new long[checkpoints.length][];
        AtomicInteger next = new AtomicInteger();
        long t0 = System.nanoTime();
        try (SimServer sim = SimServer.start(SimCommand.simulator().latency(LatencyModel.ofMillis(0, 0)).capacity(4096)
                .recentRequestLimit(0).build())) {
            // as eval runs by default (response cache read-write, traces in the run folder), no config file or environment
            VeracityConfig cfg = VeracityConfig.resolve(Map.of(), null, false, Map.of("llm-base-url", sim.baseUrl(),
                    "model", "sim-model", "cache-file", root.resolve("cache.db").toString(),
                    "trace-file", run.resolve("traces.db").toString(), "concurrency", String.valueOf(questionsAtOnce)));
            System.out.printf(Locale.ROOT, "== memory: %s on %,d generated questions (%s, %,d bytes), simulator in this"
                            + " process at zero latency, %d at once; max heap %d MB; %d cores%n", method, questions.count, data,
                    Files.size(data), questionsAtOnce, Runtime.getRuntime().maxMemory() >> 20,
                    Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "   %12s %22s %10s %12s%n", "questions", "heap after full GC", "RSS", "questions/s");
            System.out.printf(Locale.ROOT, "   %12s %19d MB %7d MB%n", "start", ServeBench.heapAfterGcKb() >> 10,
                    ServeBench.rssKb() >> 10);
            EvalRunner.Outcome o;
            try (TraceStore store = TraceStore.open(cfg.traceFile())) {
                EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(store);
                try (Stack stack = new Stack(cfg, traces)) {
                    EvalRunner.Spec spec = new EvalRunner.Spec(m, "ramdocs", data, 0, run, questionsAtOnce,
                            DatasetProfile.of("ramdocs"), m.spec().resolve(Map.of()).values(),
                            EvalRunner.labels("model", "sim-model", "bench", "memory"));
                    o = EvalRunner.run(spec, stack.client, traces, "memory", p -> {
                        if (p.reading()) {
                            return; // the dataset read and counted first: questions answered are measured, not read
                        }
                        int i = next.get();
                        // one worker takes each checkpoint; the others go on answering while it measures
                        if (i < checkpoints.length && p.done() >= checkpoints[i] && next.compareAndSet(i, i + 1)) {
                            double seconds = (System.nanoTime() - t0) / 1e9;
                            figures[i] = new long[] {p.done(), ServeBench.heapAfterGcKb(), ServeBench.rssKb(),
                                    Math.round(p.done() / seconds)};
                            System.out.printf(Locale.ROOT, "   %,12d %19d MB %7d MB %12d%n", figures[i][0],
                                    figures[i][1] >> 10, figures[i][2] >> 10, figures[i][3]);
                        }
                    });
                }
            }
            System.out.printf(Locale.ROOT, "   done: %,d answered, %d failed in %.1f s; summary n=%d; heap after GC at the"
                            + " end %d MB, RSS %d MB; results %,d bytes, traces %,d bytes%n", o.answered(),
                    o.failures().size(), (System.nanoTime() - t0) / 1e9, o.summary().n(),
                    ServeBench.heapAfterGcKb() >> 10, ServeBench.rssKb() >> 10, Files.size(run.resolve("results.jsonl")),
                    Files.size(run.resolve("traces.db")));
        }
        List<Long> heaps = new ArrayList<>();
        for (long[] f : figures) {
            if (f != null) {
                heaps.add(f[1]);
            }
        }
        if (heaps.size() == checkpoints.length) {
            System.out.printf(Locale.ROOT, "   heap after GC from %,d to %,d questions: %+d MB%n", figures[0][0],
                    figures[figures.length - 1][0], (heaps.getLast() - heaps.getFirst()) >> 10);
        }
        readers(root, run);
        System.out.println("   files in " + root);
        return 0;
    }

    /**
     * The commands that read the run after it, each measured as it ends: eval's closing table, {@code compare} of
     * the run against a second run of the same questions (twice: the second must not hold more than the first) and
     * {@code report} of both. The second run is the first with every third prediction made right, so the paired
     * differences, disagreements and their transcript links have work to do.
     */
    private static void readers(Path root, Path run) throws IOException {
        Path other = variant(run, root.resolve("run-b"));
        Path report = root.resolve("report");
        System.out.printf(Locale.ROOT, "== reading the run: eval's closing table, compare and report (heap after full GC,"
                + " heap committed and RSS after each)%n   %-44s %22s %13s %10s %9s%n", "", "heap after full GC",
                "committed", "RSS", "seconds");
        // what compare --baseline holds at most: two runs and a baseline of its own (here a third read of the first
        // run), first of their first tenth of questions, then whole; the difference is the heap a question costs
        int n = RunDir.load(run).answered();
        Path runTenth = head(run, root.resolve("run-tenth"), n / 10);
        Path otherTenth = head(other, root.resolve("run-b-tenth"), n / 10);
        long before = ServeBench.heapAfterGcKb();
        List<RunDir> held = List.of(RunDir.load(runTenth), RunDir.load(otherTenth), RunDir.load(runTenth));
        long tenthKb = ServeBench.heapAfterGcKb() - before;
        held = null;
        before = ServeBench.heapAfterGcKb();
        long t0 = System.nanoTime();
        held = List.of(RunDir.load(run), RunDir.load(other), RunDir.load(run));
        stage("two runs and a baseline loaded and held", t0);
        long wholeKb = ServeBench.heapAfterGcKb() - before;
        System.out.printf(Locale.ROOT, "   (%,d answered questions a run, %,d bytes of results.jsonl; the three tables"
                + " hold %,d KB of heap, %,d KB with a tenth of the questions)%n", held.getFirst().answered(),
                Files.size(run.resolve("results.jsonl")), wholeKb, tenthKb);
        BenchTarget.atMost("heap growth per question per run, loaded and held (flat)", 10, "bytes")
                .print(Math.max(0, (wholeKb - tenthKb) * 1024.0 / (3.0 * (n - n / 10))));
        held = null; // let the next stages start without them
        t0 = System.nanoTime();
        String table = ComparisonTable.of(List.of(RunDir.load(run))).text();
        stage("eval's closing table", t0);
        System.out.print(table.indent(3));
        String[] compare = {"compare", run.toString(), other.toString(), "--baseline", run.toString()};
        for (int i = 1; i <= 2; i++) {
            t0 = System.nanoTime();
            String out = cli(compare);
            stage("compare run run-b --baseline run (" + i + ")", t0);
            if (i == 1) {
                System.out.print(out.indent(3));
            }
        }
        t0 = System.nanoTime();
        cli("report", run.toString(), other.toString(), "--out", report.toString());
        stage("report run run-b", t0);
        long[] files = {0, 0};
        try (var walk = Files.walk(report)) {
            walk.filter(Files::isRegularFile).forEach(f -> {
                files[0]++;
                files[1] += f.toFile().length();
            });
        }
        System.out.printf(Locale.ROOT, "   (report: %,d files, %,d bytes in %s)%n", files[0], files[1], report);
        System.out.printf(Locale.ROOT, "== compare and report as users run them, each in a JVM of its own at -Xmx%dm"
                + " (the launcher's collector; the peak is the most heap in use after any collection, from -Xlog:gc)%n",
                SMALL_HEAP_MB);
        Child c = child(root, "compare", run.toString(), other.toString(), "--baseline", run.toString());
        BenchTarget.atMost("compare run run-b --baseline run (" + c.seconds() + " s, exit " + c.code()
                + "): peak heap after GC", SMALL_HEAP_MB, "MB").print(c.peakMb());
        Child r = child(root, "report", run.toString(), other.toString(), "--out", root.resolve("report-small").toString());
        BenchTarget.atMost("report run run-b (" + r.seconds() + " s, exit " + r.code() + "): peak heap after GC",
                SMALL_HEAP_MB, "MB").print(r.peakMb());
    }

    /** The heap compare and report must fit: the issue's 64 MB. */
    static final int SMALL_HEAP_MB = 64;

    /**
     * A command's run in a child JVM at {@link #SMALL_HEAP_MB}: its exit code, its seconds and the most heap in use
     * after a collection (NaN when it failed: a heap it did not fit has no figure).
     */
    record Child(int code, String seconds, double peakMb) {
    }

    private static Child child(Path root, String... args) throws IOException {
        Path log = root.resolve(args[0] + "-gc.log");
        Files.deleteIfExists(log);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + SMALL_HEAP_MB + "m", "-XX:+UseParallelGC", "-Xlog:gc:file=" + log, "-cp",
                System.getProperty("java.class.path"), VeracityCli.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(root.resolve(args[0] + "-out.txt").toFile());
        pb.environment().remove("JAVA_TOOL_OPTIONS"); // the bench's own heap is not the child's
        pb.environment().put("COLUMNS", "200");
        long t0 = System.nanoTime();
        int code;
        try {
            code = pb.start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + args[0], e);
        }
        String seconds = String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e9);
        double peak = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)M->(\\d+)M\\(").matcher(Files.readString(log));
        while (m.find()) {
            peak = Math.max(peak, Double.parseDouble(m.group(2)));
        }
        if (code != 0) {
            System.out.println("   " + args[0] + " failed: " + Files.readString(root.resolve(args[0] + "-out.txt")).strip());
        }
        return new Child(code, seconds, code == 0 ? peak : Double.NaN);
    }

    /** A run folder of the first {@code count} lines of {@code run} and its summary (a partial run: the lines say). */
    private static Path head(Path run, Path dir, int count) throws IOException {
        RunConfig.clear(dir);
        Files.createDirectories(dir);
        Files.copy(run.resolve("summary.json"), dir.resolve("summary.json"));
        try (java.io.BufferedReader in = Files.newBufferedReader(run.resolve("results.jsonl"), StandardCharsets.UTF_8);
             BufferedWriter w = Files.newBufferedWriter(dir.resolve("results.jsonl"), StandardCharsets.UTF_8)) {
            String line;
            for (int i = 0; i < count && (line = in.readLine()) != null; i++) {
                w.write(line);
                w.write('\n');
            }
        }
        return dir;
    }

    /** A stage's line; the committed heap is what the collector sized the heap to, most of the RSS beyond the JVM's own. */
    private static void stage(String what, long t0) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        long heap = ServeBench.heapAfterGcKb();
        System.out.printf(Locale.ROOT, "   %-44s %19d MB %10d MB %7d MB %9.1f%n", what, heap >> 10,
                Runtime.getRuntime().totalMemory() >> 20, ServeBench.rssKb() >> 10, seconds);
    }

    /** Runs a veracity command in this process and returns what it printed; fails when it does. */
    private static String cli(String... args) {
        java.io.StringWriter err = new java.io.StringWriter();
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stdout = System.out;
        int code;
        // System.out first: picocli's execution strategy re-points a command's output at the System.out it was
        // built under when that is no longer the current one
        System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            CommandLine cl = VeracityCli.commandLine(args);
            cl.setErr(new java.io.PrintWriter(err, true));
            code = cl.execute(args);
        } finally {
            System.out.flush();
            System.setOut(stdout);
        }
        if (code != 0) {
            throw new IllegalStateException("bench memory: '" + args[0] + "' exited " + code + ": "
                    + err.toString().strip());
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    /**
     * A second run folder of the same questions: the first's summary and lines, every third prediction replaced by
     * its gold answers (compare and report re-score from the prediction). Written a line at a time.
     */
    static Path variant(Path run, Path dir) throws IOException {
        RunConfig.clear(dir);
        Files.createDirectories(dir);
        Files.copy(run.resolve("summary.json"), dir.resolve("summary.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (java.io.BufferedReader in = Files.newBufferedReader(run.resolve("results.jsonl"), StandardCharsets.UTF_8);
             BufferedWriter w = Files.newBufferedWriter(dir.resolve("results.jsonl"), StandardCharsets.UTF_8)) {
            int i = 0;
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isBlank()) {
                    continue;
                }
                ObjectNode o = (ObjectNode) JSON.readTree(line);
                if (i++ % 3 == 0 && o.path("gold").isArray()) {
                    List<String> gold = new ArrayList<>();
                    o.get("gold").forEach(g -> gold.add(g.asText()));
                    o.put("prediction", String.join(", ", gold));
                }
                w.write(o.toString());
                w.write('\n');
            }
        }
        return dir;
    }

    /** {@code n} RAMDocs-format questions, each with two short documents, one of which holds its answer. */
    static Path generate(Path file, int n) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < n; i++) {
                String town = "Town" + Integer.toString(i, 36).toUpperCase(Locale.ROOT);
                String people = String.valueOf(1000 + (i * 7919L) % 900_000);
                ObjectNode q = JSON.createObjectNode();
                q.put("question", "What is the population of " + town + "?");
                q.putArray("documents").add(JSON.createObjectNode().put("text", "As of the census of 2010, " + town
                                + " had a population of " + people + " people.").put("type", "correct").put("answer", people))
                        .add(JSON.createObjectNode().put("text", town + " lies on a river and has a small museum.")
                                .put("type", "noise").put("answer", "unknown"));
                q.putArray("disambig_entity").add(town);
                q.putArray("gold_answers").add(people);
                q.putArray("wrong_answers");
                w.write(q.toString());
                w.write('\n');
            }
        }
        return file;
    }
}
