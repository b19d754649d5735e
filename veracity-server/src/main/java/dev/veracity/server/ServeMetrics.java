package dev.veracity.server;

import dev.veracity.http.ServerMetrics;
import dev.veracity.trace.CallRecord;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import java.util.List;

/**
 * What {@code GET /metrics} says about the answers, next to the HTTP metrics of {@link ServerMetrics}:
 * <ul>
 *   <li>{@code veracity_serve_requests_total{method, stream, status}}: chat completions by method and outcome (HTTP
 *       status; {@code client_gone} for a stream whose client left);</li>
 *   <li>{@code veracity_serve_request_duration_seconds{method}}: time from arrival to the answer's last byte;</li>
 *   <li>{@code veracity_serve_overhead_seconds{method}}: that time less the pipeline's critical path (its chain of
 *       dependent upstream calls), what the server and the method's own work add;</li>
 *   <li>{@code veracity_serve_upstream_calls_total{method}}, {@code veracity_serve_upstream_failed_calls_total{method}},
 *       {@code veracity_serve_upstream_tokens_total{method, kind}}: the upstream work per method;</li>
 *   <li>{@code veracity_serve_rejections_total{reason}}: refused at the door (missing or invalid key, rate, concurrency);</li>
 *   <li>{@code veracity_serve_pipelines_running}: methods answering now.</li>
 * </ul>
 * Label values are method names that resolved (a fixed set) or {@code unknown}: a client cannot grow the label set.
 */
final class ServeMetrics {

    private final Counter requests;
    private final Histogram duration;
    private final Histogram overhead;
    private final Counter upstreamCalls;
    private final Counter upstreamFailed;
    private final Counter upstreamTokens;
    private final Counter rejections;
    private final Gauge running;

    ServeMetrics(ServerMetrics server) {
        var registry = server.registry();
        requests = Counter.builder().name("veracity_serve_requests").help("Chat completions by method, streaming and outcome")
                .labelNames("method", "stream", "status").register(registry);
        duration = Histogram.builder().name("veracity_serve_request_duration_seconds")
                .help("Chat completion time from arrival to the answer's last byte").labelNames("method").classicOnly()
                .classicUpperBounds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
                .register(registry);
        overhead = Histogram.builder().name("veracity_serve_overhead_seconds")
                .help("Answer time less the pipeline's critical path of upstream calls").labelNames("method").classicOnly()
                .classicUpperBounds(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5)
                .register(registry);
        upstreamCalls = Counter.builder().name("veracity_serve_upstream_calls").help("Upstream model calls by method")
                .labelNames("method").register(registry);
        upstreamFailed = Counter.builder().name("veracity_serve_upstream_failed_calls")
                .help("Upstream model calls that failed after their retries, by method").labelNames("method").register(registry);
        upstreamTokens = Counter.builder().name("veracity_serve_upstream_tokens").help("Upstream tokens by method and kind")
                .labelNames("method", "kind").register(registry);
        rejections = Counter.builder().name("veracity_serve_rejections").help("Requests refused before their body was read")
                .labelNames("reason").register(registry);
        running = Gauge.builder().name("veracity_serve_pipelines_running").help("Methods answering now").register(registry);
    }

    void answered(String method, boolean stream, String status, long startedNanos, long criticalPathNanos) {
        requests.labelValues(method, Boolean.toString(stream), status).inc();
        long nanos = System.nanoTime() - startedNanos;
        duration.labelValues(method).observe(nanos / 1e9);
        if (criticalPathNanos >= 0) {
            overhead.labelValues(method).observe(Math.max(0, nanos - criticalPathNanos) / 1e9);
        }
    }

    void refused(String method, boolean stream, int status) {
        requests.labelValues(method, Boolean.toString(stream), Integer.toString(status)).inc();
    }

    void upstreamCalls(String method, List<CallRecord> calls) {
        long prompt = 0;
        long completion = 0;
        int failed = 0;
        for (CallRecord r : calls) {
            prompt += r.promptTokens();
            completion += r.completionTokens();
            failed += r.failed() ? 1 : 0;
        }
        upstreamCalls.labelValues(method).inc(calls.size());
        upstreamFailed.labelValues(method).inc(failed);
        upstreamTokens.labelValues(method, "prompt").inc(prompt);
        upstreamTokens.labelValues(method, "completion").inc(completion);
    }

    void rejected(String reason) {
        rejections.labelValues(reason).inc();
    }

    void pipelineStarted() {
        running.inc();
    }

    void pipelineEnded() {
        running.dec();
    }
}
