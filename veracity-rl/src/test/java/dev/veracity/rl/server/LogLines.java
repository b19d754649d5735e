package dev.veracity.rl.server;

import dev.veracity.http.ServerLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A server log that keeps its lines for a test to read. */
final class LogLines implements ServerLog {

    final List<String> lines = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void info(String line) {
        lines.add("INFO " + line);
    }

    @Override
    public void warn(String line) {
        lines.add("WARN " + line);
    }

    List<String> warnings() {
        synchronized (lines) {
            return lines.stream().filter(l -> l.startsWith("WARN ")).toList();
        }
    }
}
