package dev.veracity.cli;

import dev.veracity.plugin.Plugins;
import dev.veracity.sim.FaultPlan;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.RuleSet;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.sim.reader.PromptReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity sim}: the OpenAI-compatible simulator as a standalone server on loopback. */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Run the OpenAI-compatible LLM simulator on 127.0.0.1 until interrupted (Ctrl-C).")
final class SimCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "8000", description = "Port (0 picks a free one; default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--rules", paramLabel = "FILE", description = "JSON rule file: regex over the prompt -> response template.")
    Path rules;

    @Option(names = "--ttft-ms", defaultValue = "0", description = "Time to first token, ms (default ${DEFAULT-VALUE}).")
    long ttftMs;

    @Option(names = "--tpot-ms", defaultValue = "0", description = "Time per output token, ms (default ${DEFAULT-VALUE}).")
    long tpotMs;

    @Option(names = "--latency-jitter", defaultValue = "0", paramLabel = "FRACTION", description = "Vary each generation's"
            + " times uniformly by up to this fraction either way, as a real model's do; 0.1 = +-10%% (default ${DEFAULT-VALUE}: exact).")
    double latencyJitter;

    @Option(names = "--capacity", defaultValue = "1024", description = "Requests generated at once; the rest queue (default ${DEFAULT-VALUE}).")
    int capacity;

    @Option(names = "--max-queue", description = "Queue length past which requests get 429, or --queue-full-status (default unbounded).")
    Integer maxQueue;

    @Option(names = "--queue-full-status", defaultValue = "429", paramLabel = "429|503",
            description = "What a request finding the queue full gets: 429, or 503 as an overloaded proxy answers;"
                    + " either with Retry-After (default ${DEFAULT-VALUE}).")
    int queueFullStatus;

    @Option(names = "--faults", paramLabel = "SPEC",
            description = "Fault rates, e.g. rate_limit=0.1,server_error=0.05,hang=0.01,reset=0.01,malformed_json=0.01,truncated=0.01,empty_content=0.01")
    String faults;

    @Option(names = "--hang-ms", defaultValue = "60000", description = "How long a hang fault holds a request (default ${DEFAULT-VALUE}).")
    long hangMs;

    @Option(names = "--retry-after-ms", defaultValue = "1000", description = "Retry-After advertised with 429 and a full queue's 503 (default ${DEFAULT-VALUE}).")
    long retryAfterMs;

    @Option(names = "--seed", defaultValue = "0", description = "Seed for requests without one (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--model", split = ",", paramLabel = "ID",
            description = "Model ids served; requests naming another get HTTP 404 (model_not_found)."
                    + " Default: sim-model is listed and any model name is answered.")
    List<String> models;

    @Option(names = "--refuse-n", description = "Refuse n > 1 with HTTP 400, as some servers do.")
    boolean refuseN;

    @Option(names = "--no-reader", negatable = false,
            description = "Answer prompts no rule matches with \"I don't know.\" instead of the built-in extractive reader"
                    + " (which recognises the methods' and judges' prompts; plumbing, not model quality).")
    boolean noReader;

    @Option(names = "--max-request-bytes", defaultValue = "33554432",
            description = "Largest request body read; larger ones get HTTP 413 (default ${DEFAULT-VALUE}, 32 MiB).")
    long maxRequestBytes;

    /** How long the shutdown hook lets requests in progress finish before the server drops them. */
    static final Duration STOP_GRACE = Duration.ofMillis(200);

    @Override
    public Integer call() throws IOException, InterruptedException {
        SimServer server = startServer();
        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM / Ctrl-C: stop within a second. Requests get a short grace, then the server closes (which does not
        // wait for handlers still computing: they run on virtual threads, abandoned when the JVM exits).
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping simulator: " + server.counters());
            System.out.flush();
            try {
                Thread.sleep(server.counters().inFlight() > 0 ? STOP_GRACE.toMillis() : 0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server.close();
            stopped.countDown();
        }, "sim-shutdown"));
        List<String> served = server.config().models();
        System.out.println("Veracity simulator listening on " + server.baseUrl() + " (models " + served
                + (server.config().anyModel() ? ", any name answered" : "") + ")");
        System.out.println("Try: curl -s " + server.baseUrl() + "/chat/completions -H 'Content-Type: application/json' "
                + "-d '{\"model\":\"" + served.getFirst() + "\",\"n\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}'");
        System.out.flush();
        stopped.await();
        return 0;
    }

    /**
     * A simulator's configuration whose built-in reader has the readers of the plug-ins too ({@link Plugins}: the
     * class path's and those of the {@code --plugins} jars), so a plug-in method's prompts are answered by the reader
     * its plug-in contributes. Every simulator the CLI starts begins here.
     */
    static SimConfig.Builder simulator() {
        return SimConfig.builder().readers(Plugins.load(PromptReader.class));
    }

    /** Starts the simulator the flags describe. */
    SimServer startServer() throws IOException {
        if (queueFullStatus != 429 && queueFullStatus != 503) {
            throw new IllegalArgumentException("--queue-full-status must be 429 or 503, got " + queueFullStatus);
        }
        if (!(latencyJitter >= 0 && latencyJitter < 1)) {
            throw new IllegalArgumentException("--latency-jitter must be a fraction in [0, 1) (0.1 = +-10%), got " + latencyJitter);
        }
        SimConfig.Builder b = simulator().port(port)
                .latency(new LatencyModel(Duration.ofMillis(ttftMs), Duration.ofMillis(tpotMs), latencyJitter))
                .capacity(capacity).queueFullStatus(queueFullStatus).seed(seed).refuseN(refuseN)
                .reader(!noReader).maxRequestBytes(maxRequestBytes)
                .retryAfter(Duration.ofMillis(retryAfterMs))
                .faults(FaultPlan.parseRates(faults).withHangDuration(Duration.ofMillis(hangMs)));
        if (rules != null) {
            b.rules(RuleSet.load(rules));
        }
        if (maxQueue != null) {
            b.maxQueue(maxQueue);
        }
        if (models != null) {
            b.models(models);
        }
        String key = System.getenv("VERACITY_SIM_API_KEY");
        if (key != null && !key.isBlank()) {
            b.requiredApiKey(key);
        }
        return SimServer.start(b.build());
    }
}
