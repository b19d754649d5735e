package dev.veracity.sim;

import java.util.ArrayDeque;
import java.util.List;

/** The last {@code limit} requests, oldest first. */
final class RequestLog {
    private final int limit;
    private final ArrayDeque<RecordedRequest> entries;

    RequestLog(int limit) {
        this.limit = limit;
        this.entries = new ArrayDeque<>(Math.min(limit, 1024));
    }

    boolean enabled() {
        return limit > 0;
    }

    synchronized void add(RecordedRequest r) {
        if (entries.size() == limit) {
            entries.pollFirst();
        }
        entries.addLast(r);
    }

    synchronized List<RecordedRequest> snapshot() {
        return List.copyOf(entries);
    }

    synchronized void clear() {
        entries.clear();
    }
}
