package dev.veracity.trace;

import java.util.List;

/** Receives every traced call. Implementations are thread-safe and must not block the caller for long. */
public interface TraceSink extends AutoCloseable {

    /** A sink that drops everything. */
    TraceSink NONE = r -> {
    };

    void record(CallRecord record);

    /** Makes everything recorded so far durable or visible. */
    default void flush() {
    }

    @Override
    default void close() {
        flush();
    }

    /** A sink that sends every record to each of the given sinks. */
    static TraceSink all(TraceSink... sinks) {
        List<TraceSink> list = List.of(sinks);
        return new TraceSink() {
            @Override
            public void record(CallRecord record) {
                list.forEach(s -> s.record(record));
            }

            @Override
            public void flush() {
                list.forEach(TraceSink::flush);
            }

            @Override
            public void close() {
                list.forEach(TraceSink::close);
            }
        };
    }
}
