package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.results.Summary;
import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.eval.run.RunConfig;
import dev.veracity.llm.client.ClientCounters;
import dev.veracity.llm.client.ConcurrencyLimit;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench concurrency}: {@code --concurrency auto} against fixed limits, on a server whose capacity the
 * client does not know. The in-process simulator generates {@code --capacity} requests at once, queues the next
 * {@code --max-queue} and answers the rest 503 (with Retry-After); each setting runs the same questions through the
 * evaluation runner as {@code veracity eval} runs them (its default questions at once for the setting, the client's
 * retries), on a fresh simulator. Prints each setting's wall time, failed questions, the 503s the server answered and
 * the client's retries, then auto's time against the best fixed one, its failures, and the limit it settled on.
 */
@Command(name = "concurrency", mixinStandardHelpOptions = true,
        description = {"--concurrency auto against fixed limits on a simulator with a capacity, a queue and 503s past it:"
                + " wall time, failures and 503s per setting, auto's time against the best fixed one and the limit it"
                + " settled on.",
                "The simulator's figures measure plumbing, not a model."})
final class ConcurrencyBench implements Callable<Integer> {

    @Mixin
    BenchLoad.Questions questions = new BenchLoad.Questions(400);

    @Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(100);

    @Option(names = "--capacity", defaultValue = "16", description = "Requests the simulator generates at once (default ${DEFAULT-VALUE}).")
    int capacity;

    @Option(names = "--max-queue", defaultValue = "16",
            description = "Requests it queues beyond them; past the queue, 503 (default ${DEFAULT-VALUE}).")
    int maxQueue;

    @Option(names = "--retry-after-ms", defaultValue = "1000",
            description = "Retry-After its 503s advertise (default ${DEFAULT-VALUE}).")
    int retryAfterMs;

    @Option(names = "--fixed", split = ",", defaultValue = "4,8,16,24,32,64", paramLabel = "N,...",
            description = "The fixed limits swept (default ${DEFAULT-VALUE}).")
    List<Integer> fixed;

    @Option(names = "--auto-runs", defaultValue = "1", description = "How many times auto runs (default ${DEFAULT-VALUE}).")
    int autoRuns;

    @Option(names = "--method", defaultValue = "standard-rag",
            description = "The method answering, one model call a question for standard-rag (default ${DEFAULT-VALUE}).")
    String method;

    /** One setting's run. */
    record Run(String setting, double seconds, int answered, int failed, long calls, long refusals, long retries,
               Summary.AdaptiveLimit limit) {
    }

    @Override
    public Integer call() throws Exception {
        if (questions.count < 1 || latency.ms < 1 || capacity < 1 || maxQueue < 0 || retryAfterMs < 0 || autoRuns < 1
                || fixed.isEmpty() || fixed.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("--questions, --latency-ms, --capacity, --auto-runs and each --fixed must be"
                    + " >= 1, --max-queue and --retry-after-ms >= 0");
        }
        QaMethod m = Methods.byName(method);
        if (m.needs(Capability.RETRIEVER) || m.needs(Capability.EMBEDDER)) {
            throw new IllegalArgumentException("method " + method + " needs an index or an embedder: pick one that does"
                    + " not (standard-rag, no-rag)");
        }
        Path root = Files.createTempDirectory("veracity-concurrency");
        Path data = MemoryBench.generate(root.resolve("questions.jsonl"), questions.count);
        System.out.printf(Locale.ROOT, "== concurrency: %s on %d questions; simulator in this process: %d ms a call,"
                        + " %d generated at once, %d more queued, 503 past them (Retry-After %d ms)"
                        + " (simulator: plumbing, not a model); %d cores%n", method, questions.count, latency.ms, capacity,
                maxQueue, retryAfterMs, Runtime.getRuntime().availableProcessors());
        run(m, data, root.resolve("warm-up"), ConcurrencyLimit.fixed(capacity), Math.min(questions.count, 100)); // JIT
        System.out.printf(Locale.ROOT, "   %-8s %9s %9s %8s %9s %9s   %s%n", "setting", "wall s", "answered", "failed",
                "503s", "retries", "limit (settled, lowest-highest)");
        List<Run> fixedRuns = new ArrayList<>();
        for (int n : fixed) {
            fixedRuns.add(print(run(m, data, root.resolve("fixed-" + n), ConcurrencyLimit.fixed(n), questions.count)));
        }
        List<Run> autoRunsDone = new ArrayList<>();
        for (int i = 1; i <= autoRuns; i++) {
            autoRunsDone.add(print(run(m, data, root.resolve("auto-" + i), ConcurrencyLimit.AUTO, questions.count)));
        }
        Run best = fixedRuns.stream().filter(r -> r.failed() == 0)
                .min(java.util.Comparator.comparingDouble(Run::seconds)).orElse(null);
        Run auto = autoRunsDone.stream().max(java.util.Comparator.comparingDouble(Run::seconds)).orElseThrow(); // worst
        double ideal = Math.ceil((double) auto.calls() / capacity) * latency.ms / 1000.0;
        System.out.printf(Locale.ROOT, "   ideal at the server's capacity: %.2f s (calls x %d ms / %d)%n", ideal,
                latency.ms, capacity);
        if (best == null) {
            System.out.println("   no fixed setting finished without failures: nothing to compare auto with");
        } else {
            System.out.printf(Locale.ROOT, "   best fixed: %s at %.2f s; auto (the slowest of %d run%s) %.2f s, settled at %d%n",
                    best.setting(), best.seconds(), autoRuns, autoRuns == 1 ? "" : "s", auto.seconds(),
                    auto.limit().settled());
            BenchTarget.atMost("auto's time / the best fixed setting's", 1.15, "x").print(auto.seconds() / best.seconds());
        }
        BenchTarget.atLeast("auto's questions answered (0 failures)", questions.count, "")
                .print(autoRunsDone.stream().mapToInt(r -> r.failed() == 0 ? r.answered() : 0).min().orElse(0));
        System.out.println("   files in " + root);
        return 0;
    }

    private static Run print(Run r) {
        Summary.AdaptiveLimit l = r.limit();
        System.out.printf(Locale.ROOT, "   %-8s %9.2f %9d %8d %9d %9d   %s%n", r.setting(), r.seconds(), r.answered(),
                r.failed(), r.refusals(), r.retries(), l == null ? "" : l.settled() + " (" + l.lowest() + "-"
                        + l.highest() + ")");
        return r;
    }

    /** One eval of the questions with this concurrency setting, on a fresh simulator, as eval runs it. */
    private Run run(QaMethod m, Path data, Path out, ConcurrencyLimit setting, int limit) throws Exception {
        RunConfig.clear(out);
        try (SimServer sim = SimServer.start(SimCommand.simulator().latency(LatencyModel.ofMillis(latency.ms, 0))
                .capacity(capacity).maxQueue(maxQueue).queueFullStatus(503).retryAfter(Duration.ofMillis(retryAfterMs))
                .recentRequestLimit(0).build())) {
            VeracityConfig cfg = VeracityConfig.resolve(Map.of(), null, false, Map.of("llm-base-url", sim.baseUrl(),
                    "model", "sim-model", "cache", "off", "trace-file", out.resolve("traces.db").toString(),
                    "concurrency", setting.toString()));
            long t0 = System.nanoTime();
            EvalRunner.Outcome o;
            ClientCounters counters;
            try (TraceStore store = TraceStore.open(cfg.traceFile())) {
                EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(store);
                try (Stack stack = new Stack(cfg, traces)) {
                    // questions at once as eval picks them: the fixed limit, or auto's highest
                    EvalRunner.Spec spec = new EvalRunner.Spec(m, "ramdocs", data, limit, out,
                            setting.questionsAtOnce(), DatasetProfile.of("ramdocs"), m.spec().resolve(Map.of()).values(),
                            EvalRunner.labels("model", "sim-model", "bench", "concurrency", "concurrency",
                                    setting.toString()));
                    o = EvalRunner.run(spec, stack.client, traces, "concurrency", p -> { });
                    counters = stack.client.counters();
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Run(setting.toString(), seconds, o.answered(), o.failures().size(), counters.calls(),
                    sim.counters().queueRejections(),
                    counters.retries(), o.summary().concurrencyLimit());
        }
    }
}
