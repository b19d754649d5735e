package dev.veracity.sim;

import java.util.ArrayDeque;
import java.util.List;

/** The last {@code limit} requests (or other entries: the prompts no reader recognised), oldest first. */
final class RequestLog<T> {
    private final int limit;
    private final ArrayDeque<T> entries;

    RequestLog(int limit) {
        this.limit = limit;
        this.entries = new ArrayDeque<>(Math.min(limit, 1024));
    }

    boolean enabled() {
        return limit > 0;
    }

    synchronized void add(T r) {
        if (entries.size() == limit) {
            entries.pollFirst();
        }
        entries.addLast(r);
    }

    synchronized List<T> snapshot() {
        return List.copyOf(entries);
    }

    synchronized void clear() {
        entries.clear();
    }
}
