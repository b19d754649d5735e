package dev.veracity.cli;

import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench startup}: how long a user waits around the model calls of {@code veracity eval} of one
 * question, measured from outside over {@code --runs} processes against the simulator in this process: launch to the
 * first model call (the launcher, the JVM's start, the command line, the checks, the run folder opened) and the last
 * call's end to the process gone (summary, closing table, traces closed, JVM exit). Launch is taken just before the
 * process starts, the calls' times from its traces.db, the end when {@code waitFor} returns. The simulator's calls
 * measure plumbing, not a model.
 */
@Command(name = "startup", mixinStandardHelpOptions = true,
        description = "Start and end of `veracity eval` of one question (madam-rag on RAMDocs) as whole processes: launch"
                + " to the first model call, last call to the process gone; median, min and max over --runs.")
final class StartupBench implements Callable<Integer> {

    /** Launch to the first model call, ms (issue 30). */
    static final BenchTarget FIRST_CALL = BenchTarget.atMost("first model call after launch, median", 500, "ms");
    /** The last call's end to the process gone, ms (issue 30). */
    static final BenchTarget EXIT = BenchTarget.atMost("process gone after the last call returns, median", 100, "ms");

    @Option(names = "--runs", defaultValue = "5", paramLabel = "N", description = "Processes started (default ${DEFAULT-VALUE}).")
    int runs;

    @picocli.CommandLine.Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(100);

    @Option(names = "--method", defaultValue = "madam-rag", paramLabel = "NAME",
            description = "Method of the eval (default ${DEFAULT-VALUE}).")
    String method;

    @picocli.CommandLine.Mixin
    BenchLoad.RamdocsData data = new BenchLoad.RamdocsData();

    @Option(names = "--java", description = "Start the JVM directly, as the launcher would (its flags and start-up cache),"
            + " instead of through the launcher script ./veracity.")
    boolean direct;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || latency.ms < 0) {
            throw new IllegalArgumentException("--runs must be >= 1 and --latency-ms >= 0");
        }
        Path file = data.resolve(null);
        SimConfig cfg = SimCommand.simulator().latency(LatencyModel.ofMillis(latency.ms, 0)).capacity(4096)
                .recentRequestLimit(0).build();
        Path tmp = Files.createTempDirectory("veracity-bench-startup");
        List<EvalProcess.Times> times = new ArrayList<>();
        boolean launcher = false;
        try (SimServer sim = SimServer.start(cfg)) {
            for (int i = 0; i <= runs; i++) { // the first run warms the file cache and is not counted
                Path run = tmp.resolve("run" + i);
                List<String> cmd = EvalProcess.command(!direct, List.of("eval", "--method", method, "--dataset", "ramdocs",
                        "--data", file.toString(), "--limit", "1", "--out", run.toString(), "--llm-base-url",
                        sim.baseUrl(), "--model", "sim-model", "--cache", "off"));
                launcher = EvalProcess.throughLauncher(cmd);
                Path log = tmp.resolve("run" + i + ".log");
                EvalProcess.Times t = EvalProcess.run(cmd, run, log);
                if (t.exitCode() != 0 || t.calls() == 0) {
                    System.out.println("veracity eval failed (exit " + t.exitCode() + ", " + t.calls() + " calls traced); its"
                            + " output: " + log);
                    return 1;
                }
                if (i > 0) {
                    times.add(t);
                }
            }
        }
        double[] first = times.stream().mapToDouble(EvalProcess.Times::firstCallMs).sorted().toArray();
        double[] exit = times.stream().mapToDouble(EvalProcess.Times::exitMs).sorted().toArray();
        double[] whole = times.stream().mapToDouble(EvalProcess.Times::wholeMs).sorted().toArray();
        System.out.printf(Locale.ROOT, "== veracity eval of one question (%s on RAMDocs, %d calls at %d ms; simulator:"
                        + " plumbing, not a model), %d processes started %s%s, after one not counted%n", method,
                times.getFirst().calls(), latency.ms, runs, launcher ? "through the launcher ./veracity"
                        : "as java directly (the launcher's flags)",
                EvalProcess.startupCache() != null ? ", start-up cache made" : ", no start-up cache");
        System.out.printf(Locale.ROOT, "   launch to first model call:   median %5.0f ms   min %5.0f   max %5.0f%n",
                LlmBench.median(first), first[0], first[first.length - 1]);
        System.out.printf(Locale.ROOT, "   last call to process gone:    median %5.0f ms   min %5.0f   max %5.0f%n",
                LlmBench.median(exit), exit[0], exit[exit.length - 1]);
        System.out.printf(Locale.ROOT, "   whole process:                median %5.0f ms   min %5.0f   max %5.0f%n",
                LlmBench.median(whole), whole[0], whole[whole.length - 1]);
        FIRST_CALL.print(LlmBench.median(first));
        EXIT.print(LlmBench.median(exit));
        return 0;
    }
}
