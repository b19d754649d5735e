package dev.veracity.cli;

import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench llm}: the cost of our call path against the simulator over loopback HTTP.
 * <ol>
 * <li>Overhead: sequential calls at zero simulated latency through the whole client (limits, retry policy, trace
 * store; cache off), p50 and p99 per call; the backend call alone is measured too, to show what our layer adds.</li>
 * <li>Throughput: N calls from C concurrent callers at a fixed simulated latency with ample server capacity,
 * wall time against the ideal N / C x latency.</li>
 * <li>Several servers ({@code --servers}, 3): the same calls over that many simulators, each with its share of the C
 * callers (rounded up) as its own limit; wall time against the same ideal, the calls each server answered, and the full
 * client's p50 per sequential call over them (the choice's cost beside the one server's above).</li>
 * </ol>
 */
@Command(name = "llm", mixinStandardHelpOptions = true, description = {"Client overhead and concurrent throughput against the simulator.",
        "--warmup counts calls before the overhead run; --latency-ms is that of the throughput run."})
final class LlmBench implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    BenchLoad.Warmup warmup = new BenchLoad.Warmup(15000);

    @picocli.CommandLine.Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(200);

    @Option(names = "--overhead-calls", defaultValue = "10000", description = "Measured sequential calls (default ${DEFAULT-VALUE}).")
    int overheadCalls;

    @Option(names = "--calls", defaultValue = "1000", description = "Calls in the throughput run (default ${DEFAULT-VALUE}).")
    int calls;

    @Option(names = "--callers", defaultValue = "100", description = "Concurrent callers in the throughput run (default ${DEFAULT-VALUE}).")
    int callers;

    @Option(names = "--servers", defaultValue = "3", description = "Simulators in the several-servers run (default ${DEFAULT-VALUE}; 1 skips it).")
    int servers;

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("veracity-bench");
        try {
            overhead(dir);
            throughput(dir);
            if (servers > 1) {
                severalServers(dir);
            }
        } finally {
            deleteQuietly(dir);
        }
        return 0;
    }

    private void overhead(Path dir) {
        SimConfig cfg = SimConfig.builder().rules(Rule.of("(?s).*", "The answer is 42.")).recentRequestLimit(0).build();
        try (SimServer sim = SimServer.start(cfg);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             TraceStore traces = TraceStore.open(dir.resolve("overhead-traces.db"))) {
            LlmClient client = LlmClient.builder(backend).concurrency(1).retry(RetrySettings.DEFAULT).traces(traces).build();
            CallContext ctx = CallContext.of("bench-overhead", "q", "bench").role("caller");
            for (int i = 0; i < warmup.count; i++) {
                client.call(ctx, request(i));
                backend.generate(request(i), Duration.ofSeconds(10));
            }
            long[] sdk = new long[overheadCalls];
            long[] full = new long[overheadCalls];
            for (int i = 0; i < overheadCalls; i++) {
                LlmRequest r = request(warmup.count + i);
                long t0 = System.nanoTime();
                backend.generate(r, Duration.ofSeconds(10));
                long t1 = System.nanoTime();
                client.call(ctx, r);
                long t2 = System.nanoTime();
                sdk[i] = t1 - t0;
                full[i] = t2 - t1;
            }
            traces.flush();
            System.out.println("== LLM client overhead: " + overheadCalls + " sequential calls, simulator at zero latency, loopback HTTP");
            System.out.println(row("backend call alone (HTTP -> sim)", sdk));
            System.out.println(row("full client (limits+retry+trace)", full));
            BenchTarget.atMost("full client's overhead per call, p50", 200, "us").print(percentile(full, 50) / 1e3);
            // issue 30: the client keeps the figure it had on the JDK's HTTP client (README, 323 us p50 on this
            // machine; the 200 us line above is from the openai-java SDK's days, missed since the move)
            BenchTarget.atMost("full client's overhead per call, p50, as before issue 30", 323, "us")
                    .print(percentile(full, 50) / 1e3);
        }
    }

    private void throughput(Path dir) throws Exception {
        SimConfig cfg = SimConfig.builder().rules(Rule.of("(?s).*", "The answer is 42."))
                .latency(LatencyModel.ofMillis(latency.ms, 0)).capacity(Math.max(1024, callers * 2))
                .recentRequestLimit(0).build();
        try (SimServer sim = SimServer.start(cfg);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             TraceStore traces = TraceStore.open(dir.resolve("throughput-traces.db"))) {
            LlmClient client = LlmClient.builder(backend).concurrency(callers).traces(traces).build();
            // Warm the connection pool and JIT with one short round.
            runCallers(client, callers, callers);
            sim.counters().resetPeak();
            long t0 = System.nanoTime();
            runCallers(client, calls, callers);
            long wallNanos = System.nanoTime() - t0;
            double ideal = (double) calls / callers * latency.ms;
            double wall = wallNanos / 1e6;
            System.out.printf(Locale.ROOT, "== Throughput: %d calls from %d concurrent callers, %d ms simulated latency%n",
                    calls, callers, latency.ms);
            System.out.printf(Locale.ROOT, "   wall %.0f ms, ideal %.0f ms (calls x latency / callers); %.0f calls/s;"
                            + " server peak in flight %d%n", wall, ideal, calls / (wallNanos / 1e9), sim.counters().peakInFlight());
            BenchTarget.atMost("wall time over the ideal", 1.1, "x").print(wall / ideal);
        }
    }

    /** The throughput run over several simulators, each limited to its share of the callers; and the choice's cost. */
    private void severalServers(Path dir) throws Exception {
        int share = (callers + servers - 1) / servers; // room for every caller, as the one server's run has
        SimConfig cfg = SimConfig.builder().rules(Rule.of("(?s).*", "The answer is 42."))
                .latency(LatencyModel.ofMillis(latency.ms, 0)).capacity(Math.max(1024, callers * 2))
                .recentRequestLimit(0).build();
        SimConfig instant = SimConfig.builder().rules(Rule.of("(?s).*", "The answer is 42.")).recentRequestLimit(0)
                .build();
        List<SimServer> sims = new ArrayList<>();
        List<OpenAiCompatibleBackend> backends = new ArrayList<>();
        try (TraceStore traces = TraceStore.open(dir.resolve("servers-traces.db"))) {
            for (int i = 0; i < servers; i++) {
                sims.add(SimServer.start(cfg));
                backends.add(OpenAiCompatibleBackend.builder().baseUrl(sims.getLast().baseUrl()).model("sim-model")
                        .build());
            }
            LlmClient client = LlmClient.builder(backends).concurrency(share).traces(traces).build();
            runCallers(client, callers, callers);
            List<Long> before = client.endpoints().stream().map(e -> e.answered()).toList();
            long t0 = System.nanoTime();
            runCallers(client, calls, callers);
            long wallNanos = System.nanoTime() - t0;
            List<Long> answered = new ArrayList<>();
            for (int i = 0; i < servers; i++) {
                answered.add(client.endpoints().get(i).answered() - before.get(i));
            }
            double ideal = (double) calls / Math.min(callers, share * servers) * latency.ms;
            double wall = wallNanos / 1e6;
            System.out.printf(Locale.ROOT, "== Several servers: %d calls from %d callers over %d simulators, each limited"
                    + " to %d, %d ms simulated latency%n", calls, callers, servers, share, latency.ms);
            System.out.printf(Locale.ROOT, "   wall %.0f ms, ideal %.0f ms (calls x latency / callers); %.0f"
                    + " calls/s; answered per server %s%n", wall, ideal, calls / (wallNanos / 1e9),
                    answered);
            BenchTarget.atMost("wall time over the ideal, several servers", 1.1, "x").print(wall / ideal);
        } finally {
            backends.forEach(OpenAiCompatibleBackend::close);
            sims.forEach(SimServer::close);
        }
        sims.clear();
        backends.clear();
        try (TraceStore traces = TraceStore.open(dir.resolve("servers-overhead-traces.db"))) {
            for (int i = 0; i < servers; i++) {
                sims.add(SimServer.start(instant));
                backends.add(OpenAiCompatibleBackend.builder().baseUrl(sims.getLast().baseUrl()).model("sim-model")
                        .build());
            }
            LlmClient client = LlmClient.builder(backends).concurrency(1).retry(RetrySettings.DEFAULT).traces(traces)
                    .build();
            CallContext ctx = CallContext.of("bench-servers-overhead", "q", "bench").role("caller");
            for (int i = 0; i < warmup.count; i++) {
                client.call(ctx, request(i));
            }
            long[] full = new long[overheadCalls];
            for (int i = 0; i < overheadCalls; i++) {
                LlmRequest r = request(warmup.count + i);
                long t0 = System.nanoTime();
                client.call(ctx, r);
                full[i] = System.nanoTime() - t0;
            }
            traces.flush();
            System.out.println(row("full client over " + servers + " servers", full));
        } finally {
            backends.forEach(OpenAiCompatibleBackend::close);
            sims.forEach(SimServer::close);
        }
    }

    private static void runCallers(LlmClient client, int calls, int callers) throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < callers; c++) {
                int caller = c;
                pool.submit(() -> {
                    for (int i = caller; i < calls; i += callers) {
                        client.call(CallContext.of("bench-throughput", "q" + caller, "bench"), request(i));
                    }
                    return null;
                });
            }
        }
    }

    private static LlmRequest request(int i) {
        return LlmRequest.user("Benchmark question number " + i + ": what is six times seven?").temperature(0.0)
                .maxTokens(16).build();
    }

    private static String row(String label, long[] nanos) {
        return String.format(Locale.ROOT, "   %-38s p50 %7.1f us   p90 %7.1f us   p99 %7.1f us   mean %7.1f us", label,
                percentile(nanos, 50) / 1e3, percentile(nanos, 90) / 1e3, percentile(nanos, 99) / 1e3,
                Arrays.stream(nanos).average().orElse(0) / 1e3);
    }

    /** The middle value (the mean of the two middle ones for an even count); {@code values} is left as it is. */
    static double median(double[] values) {
        double[] s = Arrays.copyOf(values, values.length);
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    static long percentile(long[] values, double p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }
}
