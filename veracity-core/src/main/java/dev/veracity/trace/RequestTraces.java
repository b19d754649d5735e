package dev.veracity.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The trace sink of a front end's model clients that answers one request at a time per id ({@code serve}, the
 * LangChain4j model): each call record goes to the request it belongs to (its question id is the request's id), so a
 * request's answer can report its own calls, tokens and critical path; every record also goes on to the durable sink
 * ({@code --trace-file}, or none). Records of a request that has ended (a call cancelled after its client went) reach
 * only the durable sink.
 */
public final class RequestTraces implements TraceSink {

    private final Map<String, List<CallRecord>> open = new ConcurrentHashMap<>();
    private final TraceSink durable;

    public RequestTraces(TraceSink durable) {
        this.durable = durable;
    }

    /** Starts collecting the calls of a request. */
    public void begin(String requestId) {
        open.put(requestId, new ArrayList<>());
    }

    /** Stops collecting and returns the request's calls, in the order they ended. */
    public List<CallRecord> end(String requestId) {
        List<CallRecord> calls = open.remove(requestId);
        if (calls == null) {
            return List.of();
        }
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    @Override
    public void record(CallRecord record) {
        List<CallRecord> calls = open.get(record.context().questionId());
        if (calls != null) {
            synchronized (calls) {
                calls.add(record);
            }
        }
        durable.record(record);
    }

    @Override
    public void flush() {
        durable.flush();
    }

    @Override
    public void close() {
        durable.close();
    }

    /** Requests being collected now (for tests: none should be left once answered). */
    public int openRequests() {
        return open.size();
    }
}
