package dev.veracity.cli;

import dev.veracity.eval.data.Datasets;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.madam.MadamRag;
import dev.veracity.qa.QaItem;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench madam}: MADAM-RAG over the same questions and the same calls (the simulator's reader at a
 * fixed latency per call, cache off), four ways: the authors' loop (every call one after another), our execution
 * with questions and each round's agents concurrent, the ideal that execution could reach (the longest chain of
 * dependent calls of any question, and the server's throughput bound), and {@code veracity eval} as a whole process,
 * JVM start included, which is what a user waits for. The simulator answers instantly after its latency: the
 * figures measure our execution, not a model.
 */
@Command(name = "madam", mixinStandardHelpOptions = true,
        description = "MADAM-RAG wall time: the authors' sequential loop vs concurrent questions and agents vs the"
                + " critical-path ideal vs a whole `veracity eval` process, over the first --questions of --data.")
final class MadamBench implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    BenchLoad.Questions questions = new BenchLoad.Questions(30);

    @picocli.CommandLine.Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(100);

    @picocli.CommandLine.Mixin
    BenchLoad.ClientConcurrency concurrency = new BenchLoad.ClientConcurrency(64);

    @picocli.CommandLine.Mixin
    BenchLoad.RamdocsData data = new BenchLoad.RamdocsData();

    @Option(names = "--no-process", description = "Skip the whole-process `veracity eval` run.")
    boolean noProcess;

    /** Wall time of a run and what it called. */
    record Result(double wallMs, long calls, List<CallRecord> records) {
    }

    @Override
    public Integer call() throws Exception {
        if (questions.count < 1 || latency.ms < 0 || concurrency.limit < 1) {
            throw new IllegalArgumentException("--questions and --concurrency must be >= 1, --latency-ms >= 0");
        }
        Path file = data.resolve(null);
        List<QaItem> items;
        try (Stream<QaItem> s = Datasets.stream("ramdocs", file)) {
            items = s.limit(questions.count).toList();
        }
        SimConfig cfg = SimCommand.simulator().latency(LatencyModel.ofMillis(latency.ms, 0)).capacity(4096)
                .recentRequestLimit(0).build();
        try (SimServer sim = SimServer.start(cfg);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build()) {
            run(backend, List.of(items.getFirst()), concurrency.limit, true, "warm-up");
            Result seq = run(backend, items, 1, false, "sequential");
            Result ours = run(backend, items, concurrency.limit, true, "concurrent");
            Result oneAtATime = run(backend, items, concurrency.limit, false, "one-at-a-time");
            int chain = dev.veracity.trace.CallStats.longestChain(ours.records());
            double criticalMs = (double) chain * latency.ms;
            double throughputMs = (double) ours.calls() * latency.ms / concurrency.limit;
            int docs = items.stream().mapToInt(i -> i.documents().size()).sum();
            System.out.printf(Locale.ROOT, "== MADAM-RAG, %d questions of %s (%.1f documents each), %d ms per call"
                            + " (simulator: plumbing, not a model), %d calls per run%n", items.size(), file.getFileName(),
                    (double) docs / items.size(), latency.ms, ours.calls());
            System.out.printf(Locale.ROOT, "   sequential calls (the authors' loop, concurrency 1):   %9.0f ms%n", seq.wallMs());
            System.out.printf(Locale.ROOT, "   one question at a time, its agents concurrent:          %9.0f ms   %5.1fx%n",
                    oneAtATime.wallMs(), seq.wallMs() / oneAtATime.wallMs());
            System.out.printf(Locale.ROOT, "   questions and agents concurrent (client concurrency %d): %9.0f ms   %5.1fx%n",
                    concurrency.limit, ours.wallMs(), seq.wallMs() / ours.wallMs());
            System.out.printf(Locale.ROOT, "   ideal: %.0f ms (critical path: %d dependent calls x %d ms; throughput bound %d calls x"
                            + " %d ms / %d = %.0f ms)   %5.1fx%n", Math.max(criticalMs, throughputMs), chain, latency.ms,
                    ours.calls(), latency.ms, concurrency.limit, throughputMs, seq.wallMs() / Math.max(criticalMs, throughputMs));
            if (seq.calls() != ours.calls() || seq.calls() != oneAtATime.calls()) {
                System.out.printf(Locale.ROOT, "   note: the runs made %d, %d and %d calls: the debate stopped at different"
                        + " rounds%n", seq.calls(), oneAtATime.calls(), ours.calls());
            }
            if (!noProcess) {
                process(sim, file, items.size(), seq.wallMs());
            }
        }
        return 0;
    }

    /** The issue 30 target of the whole process against the authors' loop. */
    static final BenchTarget WHOLE_PROCESS = BenchTarget.atLeast("whole process vs the authors' loop", 20, "x");

    /**
     * {@code veracity eval} in a process of its own, started as a user starts it (through the launcher when it is
     * beside the jar, else a JVM with the launcher's flags): launch to exit, and where the time around the calls went.
     */
    private void process(SimServer sim, Path file, int n, double sequentialMs) throws IOException, InterruptedException {
        Path out = Files.createTempDirectory("veracity-bench-madam");
        List<String> cmd = EvalProcess.command(true, List.of("eval",
                "--method", "madam-rag", "--dataset", "ramdocs", "--data", file.toString(), "--limit", String.valueOf(n),
                "--out", out.resolve("run").toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                "--cache", "off", "--concurrency", String.valueOf(concurrency.limit)));
        EvalProcess.Times t = EvalProcess.run(cmd, out.resolve("run"), out.resolve("log.txt"));
        if (t.exitCode() != 0) {
            System.out.println("   veracity eval as a process failed (exit " + t.exitCode() + "); its output: " + out.resolve("log.txt"));
            return;
        }
        double ms = t.wholeMs();
        System.out.printf(Locale.ROOT, "   veracity eval, whole process (%s):     %9.0f ms   %5.1fx%n",
                EvalProcess.throughLauncher(cmd) ? "launcher ./veracity" : "java, launcher's flags", ms, sequentialMs / ms);
        System.out.printf(Locale.ROOT, "      launch to first model call %.0f ms, calls %.0f ms, last call to process gone %.0f ms"
                        + " (start-up cache %s)%n", t.firstCallMs(), (t.lastCall() - t.firstCall()) / 1e3, t.exitMs(),
                EvalProcess.startupCache() != null ? "made" : "none");
        WHOLE_PROCESS.print(sequentialMs / ms);
    }

    /**
     * Runs MADAM-RAG over the items; all questions at once when {@code questionsAtOnce}, else one after another.
     * Client concurrency 1 makes every call wait for the previous one, as the authors' loop does.
     */
    static Result run(OpenAiCompatibleBackend backend, List<QaItem> items, int clientConcurrency, boolean questionsAtOnce,
                      String runId) throws Exception {
        InMemoryTraces traces = new InMemoryTraces();
        try (LlmClient client = LlmClient.builder(backend).concurrency(clientConcurrency).traces(traces).build()) {
            MadamRag method = new MadamRag();
            long t0 = System.nanoTime();
            if (questionsAtOnce) {
                try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                    List<Future<?>> all = new ArrayList<>();
                    for (QaItem item : items) {
                        all.add(pool.submit(() -> method.answer(item, context(client, runId, item))));
                    }
                    for (Future<?> f : all) {
                        f.get();
                    }
                }
            } else {
                for (QaItem item : items) {
                    method.answer(item, context(client, runId, item));
                }
            }
            return new Result((System.nanoTime() - t0) / 1e6, client.counters().calls(), traces.all());
        }
    }

    private static MethodContext context(LlmClient client, String runId, QaItem item) {
        return new MethodContext(client, CallContext.of(runId, item.id(), "madam-rag"), "ramdocs", true, Map.of());
    }

    static Path find(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            for (Path c : new Path[] {dir.resolve("shared/data").resolve(relative), dir.resolve("../shared/data").resolve(relative)}) {
                if (Files.isRegularFile(c)) {
                    return c.normalize();
                }
            }
        }
        return null;
    }
}
