package dev.veracity.cli;

import dev.veracity.http.ServerLimits;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The listening and limit flags every server command shares ({@code serve}, {@code serve-retrieval},
 * {@code serve-rewards}), declared once. Each command mixes in its own instance, built with its defaults:
 * picocli shows a field's initial value as {@code ${DEFAULT-VALUE}} and resets the field to it before each parse.
 * The batch flag is the command's own ({@code --max-items} for serve, {@code --max-batch} for the others).
 */
public final class ServerOptions {

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to listen on (default ${DEFAULT-VALUE}:"
            + " this machine only; 0.0.0.0 for clients on other machines).")
    String host = "127.0.0.1";

    @Option(names = "--port", description = "Port (0 picks a free one; default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--max-body-mb", paramLabel = "MB",
            description = "Largest request body in MiB, else 413 before it is read (default ${DEFAULT-VALUE}).")
    int maxBodyMb = 16;

    @Option(names = "--max-concurrent-requests", paramLabel = "N", description = "Requests handled at once; more wait up"
            + " to 5 s, then get 429 (default ${DEFAULT-VALUE}).")
    int maxConcurrentRequests = 256;

    @Option(names = "--deadline-seconds", paramLabel = "S", description = "Every request is answered within this time:"
            + " what is not done by then is cancelled and the request gets 503, or, for serve-rewards, the fallback"
            + " score for the inputs not scored, flagged (default ${DEFAULT-VALUE}).")
    double deadlineSeconds;

    @Option(names = "--stop-grace-seconds", paramLabel = "S", description = "On SIGTERM, how long requests in flight"
            + " may take to finish before they are cancelled (default ${DEFAULT-VALUE}).")
    double stopGraceSeconds;

    /**
     * @param port             the command's default port
     * @param deadlineSeconds  its default request deadline
     * @param stopGraceSeconds its default grace on SIGTERM
     */
    ServerOptions(int port, double deadlineSeconds, double stopGraceSeconds) {
        this.port = port;
        this.deadlineSeconds = deadlineSeconds;
        this.stopGraceSeconds = stopGraceSeconds;
    }

    /**
     * The server's limits from these flags and the command's batch flag, each checked before anything starts; what is
     * wrong is one line naming the flags.
     *
     * @param batchFlag the name of the command's batch flag ({@code --max-batch}, {@code --max-items})
     * @param maxBatch  its value
     */
    ServerLimits limits(String batchFlag, int maxBatch) {
        List<String> wrong = new ArrayList<>();
        if (maxBodyMb < 1 || maxBodyMb > 1024) {
            wrong.add("--max-body-mb must be from 1 to 1024, got " + maxBodyMb);
        }
        if (maxBatch < 1) {
            wrong.add(batchFlag + " must be at least 1, got " + maxBatch);
        }
        if (maxConcurrentRequests < 1) {
            wrong.add("--max-concurrent-requests must be at least 1, got " + maxConcurrentRequests);
        }
        if (!(deadlineSeconds > 0)) {
            wrong.add("--deadline-seconds must be positive, got " + deadlineSeconds);
        }
        if (!(stopGraceSeconds >= 0)) {
            wrong.add("--stop-grace-seconds must be zero or more, got " + stopGraceSeconds);
        }
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", wrong));
        }
        return ServerLimits.defaults().withMaxBodyBytes((long) maxBodyMb << 20).withMaxBatch(maxBatch)
                .withMaxConcurrentRequests(maxConcurrentRequests).withRequestDeadline(ServerCommands.seconds(deadlineSeconds))
                .withStopGrace(ServerCommands.seconds(stopGraceSeconds));
    }
}
