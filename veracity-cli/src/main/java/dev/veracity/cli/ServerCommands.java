package dev.veracity.cli;

import java.time.Duration;
import java.util.List;

/**
 * What the server commands ({@code serve}, {@code serve-rewards}, {@code serve-retrieval}) share besides their flags
 * ({@link ServerOptions}): their durations and how they let go.
 */
final class ServerCommands {

    private ServerCommands() {
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
