package dev.veracity.cli;

import static dev.veracity.cli.ServerCommands.closeAll;
import static dev.veracity.cli.ServerCommands.seconds;

import dev.veracity.config.VeracityConfig;
import dev.veracity.http.ServerLimits;
import dev.veracity.http.ServerLog;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardSettings;
import dev.veracity.rl.reward.Rewards;
import dev.veracity.rl.server.RewardServer;
import dev.veracity.rl.server.RewardServerSettings;
import dev.veracity.trace.TraceStore;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity serve-rewards --reward NAME --port N}: one reward over HTTP for the trainers (OpenRLHF, slime, the
 * Python shims for VeRL and TRL) until SIGTERM or Ctrl-C, which stop it within the grace period.
 */
@Command(name = "serve-rewards", mixinStandardHelpOptions = true,
        description = "Serve a reward to RL trainers over HTTP until stopped: OpenRLHF (POST /get_reward), slime"
                + " (POST /slime), the native batch (POST /v1/rewards) for the VeRL and TRL shims, GET /health,"
                + " GET /metrics. There is no authentication: keep a --host other than this machine on a private"
                + " network.")
final class ServeRewardsCommand implements Callable<Integer> {

    @Option(names = "--reward", required = true, paramLabel = "NAME", description = "The reward: an official metric (em,"
            + " f1, nq-em, substring, ...), accuracy, truthrl-ternary, truthrl-binary, march-ztr or march-err.")
    String name;

    /**
     * Port 5000, as OpenRLHF's own reward server; every request answered within 100 s, under slime's 120 s, OpenRLHF's
     * 180 s and VeRL's 300 s; SIGTERM gives those in flight 5 s.
     */
    @Mixin
    ServerOptions http = new ServerOptions(5000, 100, 5);

    @Option(names = "--fallback-score", defaultValue = "0", paramLabel = "X", description = "The score of an input whose"
            + " reward could not be computed (model down, deadline passed), flagged in details / extra_logs and logged"
            + " (default 0).")
    double fallbackScore;

    @Option(names = "--judge", defaultValue = "none", paramLabel = "JUDGE",
            description = "TruthRL rewards: none (exact match, the default and only judge so far).")
    String judge;

    @Option(names = "--option", paramLabel = "KEY=VALUE",
            description = "MARCH setting, as for the march method (veracity methods march), e.g. --option samples=5.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--rewards-at-once", defaultValue = "64", paramLabel = "N", description = "MARCH rewards: most inputs"
            + " scored at once across all requests (model calls are further limited by --concurrency).")
    int rewardsAtOnce;

    @Option(names = "--max-batch", defaultValue = "1024", paramLabel = "N",
            description = "Most inputs in one request, else 413 (default ${DEFAULT-VALUE}).")
    int maxBatch;

    @Option(names = "--max-response-chars", defaultValue = "1000000", paramLabel = "N",
            description = "Longest response scored, else 400 naming the item (default ${DEFAULT-VALUE}).")
    int maxResponseChars;

    @Option(names = "--no-preflight", description = "MARCH rewards: skip the GET /models check at start.")
    boolean noPreflight;

    @Mixin
    ModelOptions model;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Rewards.Spec reward = Rewards.spec(name);
        if (!reward.needsModel() && !options.isEmpty()) {
            throw new IllegalArgumentException("--option sets MARCH's settings; reward " + name + " has none");
        }
        // the request deadline in these limits is the server's to set (a little past the reward deadline)
        ServerLimits limits = http.limits("--max-batch", maxBatch);
        RewardSettings rewardSettings = RewardSettings.defaults().withMarch(MarchSettings.fromOptions(options))
                .withFallbackScore(fallbackScore).withParallelism(rewardsAtOnce).withJudge(judge)
                .withRunId("serve-rewards-" + name + "-" + Instant.now());
        RewardServerSettings settings = RewardServerSettings.defaults().withHost(http.host).withPort(http.port)
                .withDeadline(seconds(http.deadlineSeconds)).withFallbackScore(fallbackScore).withRewardsAtOnce(rewardsAtOnce)
                .withMaxResponseChars(maxResponseChars)
                .withLimits(limits);
        // What the server holds, closed in reverse order after it stops (the model stack flushes its traces).
        List<AutoCloseable> held = new ArrayList<>();
        Reward r;
        if (reward.needsModel()) {
            VeracityConfig cfg = model.resolve();
            if (!noPreflight) {
                Preflight.check(cfg);
            }
            TraceStore traces = TraceStore.open(cfg.traceFile());
            held.add(traces);
            Stack stack = new Stack(cfg, traces);
            held.add(stack);
            r = Rewards.byName(name, rewardSettings.withLlm(stack.client));
        } else {
            r = Rewards.byName(name, rewardSettings);
        }
        RewardServer server;
        try {
            server = RewardServer.start(r, settings, ServerLog.to(System.err));
        } catch (Exception e) {
            closeAll(held);
            throw e;
        }
        Thread stopper = new Thread(() -> {
            server.close();
            closeAll(held);
        }, "serve-rewards-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        PrintWriter out = spec.commandLine().getOut();
        String url = server.baseUrl();
        out.println("Serving reward " + name + " on " + url + " (stop with Ctrl-C or SIGTERM)");
        out.println("  OpenRLHF:  --reward.remote_url " + url + "/get_reward");
        out.println("  slime:     --rm-type remote_rm --rm-url " + url + "/slime --reward-key reward");
        out.println("  VeRL, TRL: VERACITY_REWARD_URL=" + url + " with python/veracity_rl (POST /v1/rewards)");
        out.println("  health:    " + url + "/health   metrics: " + url + "/metrics");
        out.flush();
        server.awaitStopped();
        return 0;
    }
}
