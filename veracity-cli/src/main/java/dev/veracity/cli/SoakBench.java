package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.run.RunAudit;
import dev.veracity.eval.run.RunConfig;
import dev.veracity.methods.Methods;
import dev.veracity.qa.QaItem;
import dev.veracity.sim.FaultKind;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench soak}: every method over N questions against the simulator injecting faults (429, 500,
 * hangs past the client's timeout, connection resets, malformed and truncated bodies, in equal shares), each run as
 * {@code veracity eval} in its own JVM, SIGKILLed at random points and started again with the same {@code --out}
 * until it finishes. Then each run folder is audited ({@link RunAudit}): questions answered and failed by reason,
 * restarts, duplicate answers (must be 0), unparseable lines (must be 0), whether the summary agrees; with the wall
 * time and the peak RSS of the eval processes and of this one.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Every method against the faulty simulator, killed (SIGKILL) and resumed: nothing lost, duplicated or corrupted.",
                "--questions per method; --latency-ms is the time to the first token."})
final class SoakBench implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    BenchLoad.Questions questions = new BenchLoad.Questions(500);

    @picocli.CommandLine.Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(5);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<FaultKind> FAULTS = List.of(FaultKind.RATE_LIMIT, FaultKind.SERVER_ERROR, FaultKind.HANG,
            FaultKind.RESET, FaultKind.MALFORMED_JSON, FaultKind.TRUNCATED);

    @Option(names = "--method", split = ",", paramLabel = "NAME", description = "Only these methods (default: every one).")
    List<String> methods = new ArrayList<>();

    @Option(names = "--data", paramLabel = "FILE", description = "RAMDocs-format questions (default: ../shared/data's"
            + " RAMDocs test set when present, else the bundled 20 reworded up to --questions).")
    Path data;

    @Option(names = "--fault-rate", defaultValue = "0.10", description = "Share of model requests faulted, split evenly"
            + " over 429, 500, hang, reset, malformed and truncated (default ${DEFAULT-VALUE}).")
    double faultRate;

    @Option(names = "--kills", defaultValue = "3", description = "SIGKILLs per method before the run may finish (default ${DEFAULT-VALUE}).")
    int kills;

    @Option(names = "--max-attempts", defaultValue = "3", description = "Attempts per model call (default ${DEFAULT-VALUE}:"
            + " low enough that some questions fail for good and must be recorded with their reason).")
    int maxAttempts;

    @Option(names = "--timeout-seconds", defaultValue = "2", description = "The evals' per-attempt timeout; hangs last"
            + " twice as long (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--questions-at-once", defaultValue = "8", description = "Questions each eval answers at once (default ${DEFAULT-VALUE}).")
    int questionsAtOnce;

    @Option(names = "--seed", description = "Seed of the kill delays and the faults (default: from the clock, printed).")
    Long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Run folders, one per method (default: a new temporary folder).")
    Path out;

    /** One method's soak. */
    private record Outcome(String method, RunAudit audit, int restarts, int exit, double seconds, long peakRssKb) {
    }

    @Override
    public Integer call() throws Exception {
        if (questions.count < 1 || kills < 0 || maxAttempts < 1 || latency.ms < 0 || timeoutSeconds < 1 || questionsAtOnce < 1
                || faultRate < 0 || faultRate > 1) {
            throw new IllegalArgumentException("--questions, --max-attempts, --timeout-seconds and --questions-at-once must be"
                    + " positive, --kills and --latency-ms zero or more, --fault-rate in [0, 1]");
        }
        List<String> names = methods.isEmpty() ? List.copyOf(Methods.names()) : methods;
        names.forEach(Methods::byName); // an unknown name stops here
        long s = seed != null ? seed : System.nanoTime();
        Random random = new Random(s);
        Path root = out != null ? out : Files.createTempDirectory("veracity-soak");
        Files.createDirectories(root);
        Path file = questions(root.resolve("questions.jsonl"));
        List<String> ids;
        try (var items = Datasets.stream("ramdocs", file)) {
            ids = items.limit(questions.count).map(QaItem::id).toList();
        }
        FaultPlan faults = FaultPlan.none().withHangDuration(Duration.ofSeconds(2L * timeoutSeconds));
        for (FaultKind k : FAULTS) {
            faults = faults.withRate(k, faultRate / FAULTS.size());
        }
        long t0 = System.nanoTime();
        List<Outcome> outcomes = new ArrayList<>();
        try (SimServer sim = SimServer.start(SimCommand.simulator().latency(LatencyModel.ofMillis(latency.ms, 0))
                .capacity(4096).faults(faults).seed(s).retryAfter(Duration.ofMillis(100)).recentRequestLimit(0).build())) {
            System.out.printf(Locale.ROOT, "== soak: %d methods x %d questions (%s), %.0f%% of model requests faulted (429,"
                            + " 500, hang %ds past a %ds timeout, reset, malformed, truncated), %d SIGKILLs per method then"
                            + " a run to the end, %d attempts per call; seed %d; %d cores%n", names.size(), ids.size(), file,
                    faultRate * 100, 2 * timeoutSeconds, timeoutSeconds, kills, maxAttempts, s,
                    Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "   %-20s %8s %7s %-44s %8s %5s %4s %7s %8s %9s%n", "method", "answered", "failed",
                    "failed by reason", "restarts", "dups", "bad", "summary", "wall s", "peak RSS");
            for (String name : names) {
                Outcome o = soak(sim, name, file, ids, root.resolve(name), random);
                outcomes.add(o);
                RunAudit a = o.audit();
                System.out.printf(Locale.ROOT, "   %-20s %8d %7d %-44s %8d %5d %4d %7s %8.1f %6d MB%s%n", name, a.answered(),
                        a.failedTotal(), a.failed().isEmpty() ? "-" : a.failed().toString(), o.restarts(), a.duplicates(),
                        a.badLines(), a.problems().stream().anyMatch(p -> p.startsWith("summary")) ? "differs" : "agrees",
                        o.seconds(), o.peakRssKb() / 1024, a.sound() && a.missing() == 0 ? "" : "  PROBLEMS: " + a.problems());
            }
            System.out.printf(Locale.ROOT, "   simulator: %,d completions requests, %,d faults injected %s%n",
                    sim.counters().generationRequests(), sim.counters().totalFaultsInjected(), injected(sim));
        }
        int answered = outcomes.stream().mapToInt(o -> o.audit().answered()).sum();
        Map<String, Integer> byKind = new TreeMap<>();
        outcomes.forEach(o -> o.audit().failed().forEach((k, v) -> byKind.merge(k, v, Integer::sum)));
        int failed = byKind.values().stream().mapToInt(Integer::intValue).sum();
        int restarts = outcomes.stream().mapToInt(Outcome::restarts).sum();
        int duplicates = outcomes.stream().mapToInt(o -> o.audit().duplicates()).sum();
        int bad = outcomes.stream().mapToInt(o -> o.audit().badLines()).sum();
        long unsound = outcomes.stream().filter(o -> !o.audit().sound()).count();
        System.out.printf(Locale.ROOT, "   total: %,d questions: %,d answered, %,d recorded failed %s, %,d lost; %d restarts"
                        + " after SIGKILL; %d duplicate answers; %d unparseable lines; %d run folders with problems; wall %.1f s;"
                        + " peak RSS of an eval %d MB, of this process %d MB%n", (long) ids.size() * names.size(), answered,
                failed, byKind, outcomes.stream().mapToInt(o -> o.audit().missing()).sum(), restarts, duplicates, bad,
                unsound, (System.nanoTime() - t0) / 1e9,
                outcomes.stream().mapToLong(Outcome::peakRssKb).max().orElse(0) / 1024, peakRssKb(ProcessHandle.current().pid()) / 1024);
        System.out.println("   run folders: " + root);
        return unsound == 0 ? 0 : 1;
    }

    /** Kills the method's eval {@code kills} times at random points, then lets it finish; audits the folder. */
    private Outcome soak(SimServer sim, String method, Path file, List<String> ids, Path dir, Random random)
            throws Exception {
        RunConfig.clear(dir);
        Files.deleteIfExists(dir.resolve("cache.db"));
        Files.deleteIfExists(dir.resolve("eval.log"));
        Path results = dir.resolve("results.jsonl");
        long t0 = System.nanoTime();
        long peak = 0;
        int restarts = 0;
        int exit;
        while (true) {
            boolean kill = restarts < kills;
            Process p = eval(sim, method, file, dir);
            long sizeAtStart = size(results);
            // a random point after the run has made progress of its own (a kill during start-up redoes nothing)
            long killAt = 0; // nanoTime of the kill once chosen (0: none yet)
            boolean due = false;
            while (p.isAlive() && !due) {
                peak = Math.max(peak, peakRssKb(p.pid()));
                if (kill && killAt == 0 && size(results) > sizeAtStart) {
                    killAt = System.nanoTime() + random.nextInt(3000) * 1_000_000L;
                }
                due = killAt != 0 && System.nanoTime() - killAt >= 0;
                p.waitFor(50, TimeUnit.MILLISECONDS);
            }
            if (due && p.isAlive()) {
                p.destroyForcibly(); // SIGKILL
                p.waitFor();
                restarts++;
                continue;
            }
            exit = p.exitValue();
            if (exit != 0 && exit != 1) { // 1: some questions failed and are recorded; anything else is a crash
                throw new IllegalStateException("veracity eval --method " + method + " exited " + exit + "; see "
                        + dir.resolve("eval.log"));
            }
            break;
        }
        return new Outcome(method, RunAudit.of(dir, ids), restarts, exit, (System.nanoTime() - t0) / 1e9, peak);
    }

    private Process eval(SimServer sim, String method, Path file, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        // this JVM's flags, as the launcher gives them (heap and GC included), less the Vector API module
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> !a.startsWith("--add-modules") && !a.startsWith("-Djdk.module.addmods")
                        && !a.startsWith("-XX:AOTCache") && !a.startsWith("-Xlog:aot") && !a.startsWith("-Xlog:cds"))
                .forEach(cmd::add);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), VeracityCli.class.getName(), "eval",
                "--method", method, "--dataset", "ramdocs", "--data", file.toString(), "--limit", String.valueOf(questions.count),
                "--out", dir.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--no-preflight",
                "--cache-file", dir.resolve("cache.db").toString(), "--timeout-seconds", String.valueOf(timeoutSeconds),
                "--questions-at-once", String.valueOf(questionsAtOnce)));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("VERACITY_MAX_ATTEMPTS", String.valueOf(maxAttempts));
        return pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("eval.log").toFile()))
                .start();
    }

    /**
     * The questions: --data, else the RAMDocs test set beside the repository, else the bundled 20 again and again,
     * each pass reworded so that every question is a new prompt (and a new id).
     */
    private Path questions(Path target) throws IOException {
        if (data != null) {
            if (!Files.isRegularFile(data)) {
                throw new IllegalArgumentException("no questions file at " + data);
            }
            return data;
        }
        Path shared = MadamBench.find("ramdocs/RAMDocs_test.jsonl");
        if (shared != null && Files.lines(shared).count() >= questions.count) {
            return shared;
        }
        List<String> bundled = Files.readAllLines(MethodsDemo.copyBundled(target.resolveSibling("bundled.jsonl")));
        List<String> lines = new ArrayList<>();
        for (int i = 0; lines.size() < questions.count; i++) {
            ObjectNode q = (ObjectNode) JSON.readTree(bundled.get(i % bundled.size()));
            int pass = i / bundled.size();
            if (pass > 0) {
                q.put("question", q.get("question").asText() + " (variant " + pass + ")");
            }
            lines.add(q.toString());
        }
        Files.write(target, lines);
        return target;
    }

    private static String injected(SimServer sim) {
        Map<String, Long> m = new TreeMap<>();
        for (FaultKind k : FAULTS) {
            m.put(k.name().toLowerCase(Locale.ROOT), sim.counters().faultsInjected(k));
        }
        return m.toString();
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    /** The peak resident set (VmHWM) of a live process, KiB; 0 when unknown (not Linux, or already gone). */
    static long peakRssKb(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone, or not Linux
        }
        return 0;
    }
}
