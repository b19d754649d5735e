package dev.veracity.mcp;

import dev.veracity.trace.CallRecord;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Progress of a long tool call: one {@code notifications/progress} per model call answered, with the count so far and
 * the agent's role, when the request carries a progress token ({@code _meta.progressToken}); nothing otherwise. The
 * total is not sent: a method's number of calls depends on what the model answers.
 */
final class Progress implements Consumer<CallRecord> {

    private final McpSyncServerExchange exchange;
    private final Object token;
    private final AtomicInteger calls = new AtomicInteger();
    private final Queue<McpSchema.ProgressNotification> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sending = new AtomicBoolean();

    private Progress(McpSyncServerExchange exchange, Object token) {
        this.exchange = exchange;
        this.token = token;
    }

    /** The progress of this request, or a listener that does nothing when it asked for none. */
    static Consumer<CallRecord> of(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
        Map<String, Object> meta = request.meta();
        Object token = meta == null ? null : meta.get("progressToken");
        return token == null || exchange == null ? r -> { } : new Progress(exchange, token);
    }

    /**
     * Counts under the lock, sends outside it: calls end on several threads at once and progress must only increase,
     * but a client slow to take a notification must not hold up the method's other calls. The notifications queue in
     * count order and one thread at a time sends what is queued (the others go on at once).
     */
    @Override
    public void accept(CallRecord record) {
        synchronized (this) {
            int n = calls.incrementAndGet();
            pending.add(new McpSchema.ProgressNotification(token, n, null,
                    "model call " + n + " answered (" + record.context().role() + ")"));
        }
        while (!pending.isEmpty() && sending.compareAndSet(false, true)) {
            try {
                for (McpSchema.ProgressNotification p; (p = pending.poll()) != null; ) {
                    send(p);
                }
            } finally {
                sending.set(false);
            }
        }
    }

    private void send(McpSchema.ProgressNotification p) {
        try {
            exchange.progressNotification(p);
        } catch (RuntimeException e) {
            // the client went away: the answer is still worked out and sent, or dropped, as the transport decides
        }
    }
}
