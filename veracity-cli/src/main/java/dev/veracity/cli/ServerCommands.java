package dev.veracity.cli;

import dev.veracity.http.ServerLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the server commands ({@code serve}, {@code serve-rewards}, {@code serve-retrieval}) share: their limits from
 * their flags, their durations and how they let go.
 */
final class ServerCommands {

    private ServerCommands() {
    }

    /**
     * The server's limits from the flags every server command has, each checked before anything starts; what is wrong
     * is one line naming the flags.
     *
     * @param batchFlag the name of the command's batch flag ({@code --max-batch}, {@code --max-items})
     */
    static ServerLimits limits(String batchFlag, int maxBatch, int maxBodyMb, int maxConcurrentRequests,
                               double deadlineSeconds, double stopGraceSeconds) {
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
                .withMaxConcurrentRequests(maxConcurrentRequests).withRequestDeadline(seconds(deadlineSeconds))
                .withStopGrace(seconds(stopGraceSeconds));
    }

    /** A duration from a command-line number of seconds (fractions kept). */
    static Duration seconds(double s) {
        return Duration.ofNanos(Math.round(s * 1e9));
    }

    /** Closes what a server held, in reverse order of opening (the model stack flushes its traces), and forgets it. */
    static void closeAll(List<AutoCloseable> held) {
        for (int i = held.size() - 1; i >= 0; i--) {
            try {
                held.get(i).close();
            } catch (Exception ignored) {
                // stopping anyway; nothing more to do with it
            }
        }
        held.clear();
    }
}
