package dev.veracity.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Keeps calls in memory, in the order they ended: for tests, the demo and short runs. */
public final class InMemoryTraces implements TraceSink {

    private final List<CallRecord> records = new ArrayList<>();

    @Override
    public synchronized void record(CallRecord record) {
        records.add(record);
    }

    public synchronized List<CallRecord> all() {
        return List.copyOf(records);
    }

    public synchronized List<CallRecord> where(Predicate<CallRecord> filter) {
        return records.stream().filter(filter).toList();
    }

    public synchronized void clear() {
        records.clear();
    }
}
