package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.ServerLog;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardSettings;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.rl.server.RewardServer;
import dev.veracity.rl.server.RewardServerSettings;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench rewards}: the reward server under OpenRLHF's load, over loopback HTTP in one process.
 * <ol>
 * <li>{@code truthrl-ternary}: N requests of one sample each (OpenRLHF sends one per request) from C concurrent
 * clients: p50 / p99 latency, throughput, errors;</li>
 * <li>{@code march-ztr} against the simulator answering as MARCH's model at a fixed latency per call: throughput for
 * each checker concurrency limit (the model client's), against the ideal {@code concurrency / (calls per reward x
 * latency)} and the clients' own bound {@code clients / (calls in a chain x latency)}.</li>
 * </ol>
 */
@Command(name = "rewards", mixinStandardHelpOptions = true,
        description = {"The reward server under OpenRLHF-style load: truthrl-ternary, then march-ztr against the simulator.",
                "--requests and --warmup count truthrl-ternary requests."})
final class RewardsBench implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** march-ztr's rewards/s by checker concurrency before issue 30 (64 clients, 100 ms a call; README), kept as targets. */
    private static final java.util.Map<Integer, Double> MARCH_BEFORE = java.util.Map.of(16, 37.8, 64, 141.9, 256, 155.5);
    private static final String PROMPT = "<|im_start|>user\nWhere is the Eiffel Tower? Put the answer in \\boxed{}.<|im_end|>\n"
            + "<|im_start|>assistant\n";

    @picocli.CommandLine.Mixin
    BenchLoad.Warmup warmup = new BenchLoad.Warmup(5000);

    @picocli.CommandLine.Mixin
    BenchLoad.Latency latency = new BenchLoad.Latency(100);

    @picocli.CommandLine.Mixin
    BenchLoad.Requests load = new BenchLoad.Requests(10000, 64);

    @Option(names = "--march-requests", defaultValue = "1000",
            description = "march-ztr requests per checker concurrency limit (default ${DEFAULT-VALUE}).")
    int marchRequests;

    @Option(names = "--checker-concurrency", defaultValue = "16,64,256", split = ",",
            description = "The model client's concurrency limits to measure march-ztr at (default ${DEFAULT-VALUE}).")
    List<Integer> checkerConcurrency;

    @Option(names = "--keep-alive", description = "Reuse each client's connection (slime's shared session does);"
            + " by default every request opens a new one, as OpenRLHF's per-request aiohttp session does.")
    boolean keepAlive;

    @Override
    public Integer call() throws Exception {
        if (load.requests < 1 || load.clients < 1 || marchRequests < 0 || warmup.count < 0 || latency.ms < 0) {
            throw new IllegalArgumentException("--requests and --clients must be positive; --march-requests, --warmup"
                    + " and --latency-ms zero or more");
        }
        truthRl();
        if (marchRequests > 0) {
            for (int c : checkerConcurrency) {
                march(c);
            }
        }
        return 0;
    }

    private void truthRl() throws Exception {
        String[] bodies = {
            body("\\boxed{Paris}", "Paris"), body("I think \\boxed{I don't know}.", "Paris"),
            body("\\boxed{Rome}", "Paris"), body("no box", "{\"answers\": [\"Paris\", \"City of Light\"]}")};
        try (RewardServer server = RewardServer.start(Rewards.byName("truthrl-ternary"), RewardServerSettings.defaults(),
                ServerLog.none())) {
            run(server.port(), bodies, warmup.count, load.clients);
            Result r = run(server.port(), bodies, load.requests, load.clients);
            System.out.printf(Locale.ROOT, "== truthrl-ternary: %,d OpenRLHF requests (one sample each) from %d clients, %s%n",
                    load.requests, load.clients, keepAlive ? "connections kept alive" : "a new connection per request");
            System.out.printf(Locale.ROOT, "   %s%n", r.line());
            // issue 30: the serving path keeps the figures it had (README, measured before issue 30 on this machine)
            BenchTarget.atLeast("requests/s, as before issue 30", keepAlive ? 7_690 : 4_350, "").print(r.throughput());
        }
    }

    private void march(int concurrency) throws Exception {
        SimConfig cfg = SimCommand.simulator()
                .rules(Rule.of("You are a data validation expert", m -> AppendixC.respond(m.prompt())),
                        Rule.of("You are a data annotation expert", m -> AppendixC.respond(m.prompt())))
                .latency(LatencyModel.ofMillis(latency.ms, 0)).capacity(Math.max(4096, concurrency * 2))
                .recentRequestLimit(0).build();
        ObjectNode label = JSON.createObjectNode();
        label.putArray("answers").add("-");
        com.fasterxml.jackson.databind.node.ArrayNode docs = label.putArray("documents");
        AppendixC.DOCUMENTS.forEach(d -> docs.add(d.text()));
        String[] bodies = {body(AppendixC.SOLVER_RESPONSE, label.toString())};
        try (SimServer sim = SimServer.start(cfg);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(concurrency).cache(ResponseCache.NONE, CacheMode.OFF)
                     .timeout(Duration.ofSeconds(120)).build()) {
            Reward ztr = Rewards.byName("march-ztr", RewardSettings.defaults().withLlm(client));
            try (RewardServer server = RewardServer.start(ztr, RewardServerSettings.defaults().withRewardsAtOnce(4096),
                    ServerLog.none())) {
                run(server.port(), bodies, Math.min(marchRequests, load.clients), load.clients); // warm up
                long calls0 = sim.counters().generationRequests();
                Result r = run(server.port(), bodies, marchRequests, load.clients);
                double callsPerReward = (double) (sim.counters().generationRequests() - calls0) / marchRequests;
                double latencyS = latency.ms / 1000.0;
                double ideal = concurrency / (callsPerReward * latencyS);
                double clientBound = load.clients / (2 * latencyS); // Proposer, then the Checker samples at once
                double bound = Math.min(ideal, clientBound);
                System.out.printf(Locale.ROOT, "== march-ztr: %,d requests from %d clients, %d ms per model call, checker"
                        + " concurrency %d%n", marchRequests, load.clients, latency.ms, concurrency);
                System.out.printf(Locale.ROOT, "   %s%n", r.line());
                System.out.printf(Locale.ROOT, "   %.1f model calls per reward; ideal concurrency / (calls x latency) ="
                                + " %.1f rewards/s, clients' bound %d / (2 x latency) = %.1f; measured %.1f rewards/s ="
                                + " %.2f of the lower bound%n", callsPerReward, ideal, load.clients, clientBound,
                        r.throughput(), r.throughput() / bound);
                Double before = MARCH_BEFORE.get(concurrency);
                if (before != null && load.clients == 64 && latency.ms == 100) {
                    BenchTarget.atLeast("rewards/s, as before issue 30", before, "").print(r.throughput());
                }
            }
        }
    }

    private static String body(String response, String label) {
        ObjectNode o = JSON.createObjectNode();
        o.putArray("query").add(PROMPT + response + "<|im_end|>");
        o.putArray("prompts").add(PROMPT);
        o.putArray("labels").add(label);
        return o.toString();
    }

    /** What one run measured; latencies in nanoseconds. */
    private record Result(int requests, long wallNanos, long[] latencies, long errors, long fallbacks) {
        double throughput() {
            return requests / (wallNanos / 1e9);
        }

        String line() {
            return String.format(Locale.ROOT, "wall %.2f s, %.0f requests/s, latency p50 %.2f ms, p99 %.2f ms, max %.2f ms;"
                            + " errors %d, fallbacks %d", wallNanos / 1e9, throughput(),
                    LlmBench.percentile(latencies, 50) / 1e6, LlmBench.percentile(latencies, 99) / 1e6,
                    Arrays.stream(latencies).max().orElse(0) / 1e6, errors, fallbacks);
        }
    }

    /** {@code n} requests from {@code clients} concurrent clients, each taking the next request as it finishes one. */
    private Result run(int port, String[] bodies, int n, int clients) throws Exception {
        long[] latencies = new long[n];
        AtomicInteger next = new AtomicInteger();
        AtomicLong errors = new AtomicLong();
        AtomicLong fallbacks = new AtomicLong();
        byte[][] payloads = Arrays.stream(bodies).map(b -> b.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        long t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < clients; c++) {
                pool.submit(() -> {
                    try (LoopbackHttp http = new LoopbackHttp(port, !keepAlive)) {
                        for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                            long s = System.nanoTime();
                            try {
                                LoopbackHttp.Answer a = http.post("/get_reward", payloads[i % payloads.length]);
                                if (a.status() != 200) {
                                    errors.incrementAndGet();
                                } else if (JSON.readTree(a.body()).path("extra_logs").path("fallback").path(0).asDouble() != 0.0) {
                                    fallbacks.incrementAndGet();
                                }
                            } catch (Exception e) {
                                errors.incrementAndGet();
                                http.disconnect();
                            }
                            latencies[i] = System.nanoTime() - s;
                        }
                    }
                    return null;
                });
            }
        }
        return new Result(n, System.nanoTime() - t0, latencies, errors.get(), fallbacks.get());
    }
}
