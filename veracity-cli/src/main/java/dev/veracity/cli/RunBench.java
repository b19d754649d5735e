package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.run.EvalJob;
import dev.veracity.eval.run.EvalJobRunner;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.methods.Methods;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench run}: methods over the same questions through the evaluation runner as {@code veracity eval}
 * runs them ({@link EvalJobRunner}: run folder, trace store, results file, per-question accounting, summary), against
 * the in-process simulator at a fixed latency per call, cache off. Each run's wall time inside the run (its first
 * model call asked to its last one answered: the process's start and exit are {@code bench madam}'s) is set against
 * the ideal for the client's concurrency: the larger of the longest chain of dependent calls times the latency and
 * the calls times the latency over the concurrency (the trace store's records give both). The questions are RAMDocs'
 * for every method, as {@code demo} and {@code bench soak} run them (documents each method reads; C-3PO's proxy is
 * the LLM's client, as in the demo). The simulator answers instantly after its latency: the figures measure our
 * execution, not a model.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Methods through the eval runner against the simulator: wall time inside the run against the ideal"
                + " for the client's concurrency (longest chain of dependent calls, or calls x latency / concurrency).",
                "The simulator's figures measure plumbing, not a model."})
final class RunBench implements Callable<Integer> {

    /** The methods issue 30 names, each with a different shape of calls (rounds of agents, a pipeline, a tree). */
    static final List<String> METHODS = List.of("madam-rag", "march", "court", "c3po");

    /** At most this many times the ideal (issue 30, target 2). */
    static final double TARGET = 1.2;

    @picocli.CommandLine.Mixin
    BenchLoad.Questions questions = new BenchLoad.Questions(200);

    @picocli.CommandLine.Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(100);

    @picocli.CommandLine.Mixin
    BenchLoad.ClientConcurrency concurrency = new BenchLoad.ClientConcurrency(64);

    @picocli.CommandLine.Mixin
    BenchLoad.Warmup warmup = new BenchLoad.Warmup(1);

    @Option(names = "--method", split = ",", paramLabel = "NAME",
            description = "Methods, comma-separated (default: madam-rag,march,court,c3po).")
    List<String> methods = new ArrayList<>(METHODS);

    @picocli.CommandLine.Mixin
    BenchLoad.RamdocsData data = new BenchLoad.RamdocsData();

    @Option(names = "--questions-at-once", paramLabel = "N", description = "Questions admitted at once (default: eval's,"
            + " four times --concurrency).")
    Integer questionsAtOnce;

    @Option(names = "--out", paramLabel = "DIR", description = "Run folders (default: a new temporary folder).")
    Path out;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "Measured runs of each method; the"
            + " target is judged on their median, as one run on a shared machine varies by a tenth (default"
            + " ${DEFAULT-VALUE}).")
    int repeat;

    /** One measured run: what it called and how long it took. */
    record Figures(String method, int questions, int answered, int failed, int calls, int chain, double idealMs,
                   double wallMs, double runnerMs, long p50Micros, long p99Micros, double cpuMsPerCall) {

        double ratio() {
            return wallMs / idealMs;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (questions.count < 1 || latency.ms < 1 || concurrency.limit < 1 || warmup.count < 0 || repeat < 1
                || questionsAtOnce != null && questionsAtOnce < 1) {
            throw new IllegalArgumentException("--questions, --latency-ms, --concurrency, --repeat and --questions-at-once"
                    + " must be >= 1, --warmup >= 0");
        }
        methods.forEach(Methods::byName); // an unknown name stops here, before any call
        Path root = out != null ? out : Files.createTempDirectory("veracity-bench-run");
        Files.createDirectories(root);
        Path file = data.resolve(root.resolve("ramdocs-20.jsonl"));
        try (SimServer sim = SimServer.start(SimCommand.simulator().latency(LatencyModel.ofMillis(latency.ms, 0))
                .capacity(4096).recentRequestLimit(0).build())) {
            // as `veracity eval --cache off --concurrency N` runs (no config file, no environment)
            VeracityConfig cfg = VeracityConfig.resolve(Map.of(), null, false, Map.of("llm-base-url", sim.baseUrl(),
                    "model", "sim-model", "cache", "off", "concurrency", String.valueOf(concurrency.limit)));
            System.out.printf(Locale.ROOT, "== eval runner inside a run: first %d questions of %s, simulator in this"
                            + " process at %d ms per call (plumbing, not a model), client concurrency %d, %d questions"
                            + " at once, cache off; %d untimed warm-up run(s) of each method first; %d cores%n",
                    questions.count, file, latency.ms, concurrency.limit, atOnce(), warmup.count,
                    Runtime.getRuntime().availableProcessors());
            List<Figures> all = new ArrayList<>();
            for (String name : methods) {
                for (int i = 0; i < warmup.count; i++) {
                    run(cfg, name, file, root.resolve("warmup-" + name));
                }
                List<Double> ratios = new ArrayList<>();
                for (int i = 0; i < repeat; i++) {
                    Figures f = run(cfg, name, file, root.resolve(name));
                    all.add(f);
                    ratios.add(f.ratio());
                    System.out.printf(Locale.ROOT, "   %-10s %d questions (%d answered, %d failed), %,d calls, longest chain"
                                    + " %d calls; ideal %.0f ms (chain %d x %d ms = %d ms; %,d calls x %d ms / %d = %.0f ms);"
                                    + " wall %.0f ms first call to last (the runner %.0f ms in all), %.2fx; a call's latency"
                                    + " p50 %.1f ms, p99 %.1f ms; CPU of this process (runner, client and simulator) %.2f ms"
                                    + " per call%n", name, f.questions(), f.answered(), f.failed(), f.calls(), f.chain(),
                            f.idealMs(), f.chain(), latency.ms, (long) f.chain() * latency.ms, f.calls(), latency.ms,
                            concurrency.limit, (double) f.calls() * latency.ms / concurrency.limit, f.wallMs(),
                            f.runnerMs(), f.ratio(), f.p50Micros() / 1e3, f.p99Micros() / 1e3, f.cpuMsPerCall());
                }
                BenchTarget.atMost(name + " wall / ideal" + (repeat > 1 ? ", median of " + repeat + " runs" : ""), TARGET,
                        "x").print(median(ratios));
            }
            System.out.println("   run folders (each method's last run): " + root);
            return all.stream().allMatch(f -> f.failed() == 0) ? 0 : 1;
        }
    }

    /** One eval of the method into {@code dir} (started over), and its figures from the run's trace store. */
    private Figures run(VeracityConfig cfg, String method, Path file, Path dir) throws Exception {
        EvalJob job = EvalJob.builder(Methods.byName(method), MethodsDemo.DATASET, file, dir).limit(questions.count)
                .questionsAtOnce(questionsAtOnce).model(cfg).documents(new MethodsDemo.DemoDocuments(null)).preflight(false).force(true)
                .labels(EvalRunner.labels("model", cfg.model(), "llm_base_url", cfg.llmBaseUrl(),
                        "concurrency", String.valueOf(concurrency.limit), "cache", "off", "bench", "run"))
                .build();
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        EvalRunner.Outcome o = EvalJobRunner.run(job, new CliJobEnvironment(null, j -> CliJobEnvironment.silent())).outcome();
        double runnerMs = (System.nanoTime() - t0) / 1e6;
        long cpu = cpuNanos() - cpu0;
        List<CallRecord> calls = new ArrayList<>();
        try (TraceStore store = TraceStore.open(dir.resolve("traces.db"))) {
            store.runs().forEach(r -> calls.addAll(store.calls(r)));
        }
        long first = calls.stream().mapToLong(CallRecord::submittedMicros).min().orElse(0);
        long last = calls.stream().mapToLong(CallRecord::endedMicros).max().orElse(0);
        int chain = CallStats.longestChain(calls);
        double ideal = Math.max((double) chain * latency.ms, (double) calls.size() * latency.ms / concurrency.limit);
        long[] latencies = calls.stream().mapToLong(CallRecord::latencyMicros).sorted().toArray();
        return new Figures(method, o.total(), o.answered(), o.failures().size(), calls.size(), chain, ideal,
                (last - first) / 1e3, runnerMs, latencies.length == 0 ? 0 : LlmBench.percentile(latencies, 50),
                latencies.length == 0 ? 0 : LlmBench.percentile(latencies, 99),
                calls.isEmpty() ? 0 : cpu / 1e6 / calls.size());
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Questions the runner admits at once: --questions-at-once, else eval's default for the concurrency. */
    private int atOnce() {
        return questionsAtOnce != null ? questionsAtOnce : dev.veracity.llm.client.ConcurrencyLimit.fixed(concurrency.limit).questionsAtOnce();
    }

    /** CPU time of this process so far (every thread), ns; 0 where the JVM cannot tell. */
    private static long cpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? Math.max(0, os.getProcessCpuTime()) : 0;
    }
}
