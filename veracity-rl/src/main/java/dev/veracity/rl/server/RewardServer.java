package dev.veracity.rl.server;

import dev.veracity.http.JsonServer;
import dev.veracity.http.ServerLog;
import dev.veracity.http.ServerMetrics;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.Rewards;
import java.io.IOException;

/**
 * One reward served over HTTP to every trainer ({@code veracity serve-rewards}), the third door of the reward core
 * next to the Java API and {@code veracity reward}: the same {@link Reward} scores each door's inputs.
 * <ul>
 *   <li>{@code POST /get_reward} and {@code POST /}: OpenRLHF ({@link OpenRlhfDoor});</li>
 *   <li>{@code POST /slime}: slime ({@link SlimeDoor});</li>
 *   <li>{@code POST /v1/rewards}: the native batch the Python shims call ({@link NativeDoor});</li>
 *   <li>{@code GET /health}, {@code GET /metrics}: from {@link JsonServer}, with the reward metrics
 *       ({@link RewardMetrics}).</li>
 * </ul>
 * A response that is bad or unparseable is scored (that is its reward), never an HTTP error: trainers retry 5xx and
 * OpenRLHF then leaves the reward empty. Only a bad request (not JSON, lists of different lengths, a bad label, over a
 * limit) is refused, with 400 or 413 and the reason, before any input of it is scored. Every request is answered within
 * {@link RewardServerSettings#deadline()}: what is not scored by then gets the fallback score, flagged.
 */
public final class RewardServer implements AutoCloseable {

    private final JsonServer http;
    private final DeadlineScorer scorer;

    private RewardServer(JsonServer http, DeadlineScorer scorer) {
        this.http = http;
        this.scorer = scorer;
    }

    /**
     * Starts serving the reward.
     *
     * @throws java.net.BindException when the port is taken
     */
    public static RewardServer start(Reward reward, RewardServerSettings settings, ServerLog log) throws IOException {
        ExtraLogs extraLogs = new ExtraLogs(reward, log);
        ServerMetrics metrics = new ServerMetrics();
        DeadlineScorer scorer = new DeadlineScorer(reward, callsModel(reward), settings, log,
                new RewardMetrics(metrics, reward.name()));
        OpenRlhfDoor openRlhf = new OpenRlhfDoor(reward, scorer, settings.maxResponseChars(), extraLogs);
        try {
            JsonServer http = JsonServer.builder().name("reward-server").host(settings.host()).port(settings.port())
                    .limits(settings.limits().withRequestDeadline(settings.deadline().plusSeconds(5)))
                    .metrics(metrics).log(log)
                    .route("POST", "/", openRlhf)
                    .route("POST", "/get_reward", openRlhf)
                    .route("POST", "/slime", new SlimeDoor(reward, scorer, settings.maxResponseChars()))
                    .route("POST", "/v1/rewards", new NativeDoor(reward, scorer, settings.maxResponseChars()))
                    .start();
            return new RewardServer(http, scorer);
        } catch (IOException | RuntimeException e) {
            scorer.close();
            throw e;
        }
    }

    /** Rewards of the registry say whether they call a model; one from elsewhere is assumed to (it may be slow). */
    private static boolean callsModel(Reward reward) {
        return !Rewards.names().contains(reward.name()) || Rewards.spec(reward.name()).needsModel();
    }

    public int port() {
        return http.port();
    }

    /** {@code http://HOST:PORT}. */
    public String baseUrl() {
        return http.baseUrl();
    }

    public void awaitStopped() throws InterruptedException {
        http.awaitStopped();
    }

    /** Stops as {@link JsonServer#close()} does, then cancels any scoring still running. */
    @Override
    public void close() {
        try {
            http.close();
        } finally {
            scorer.close();
        }
    }
}
