package dev.veracity.http;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A server's Prometheus metrics, served at {@code GET /metrics} in the text format. Its own registry (not the
 * process-wide default), so two servers in one process, or tests, never mix their counts. Applications register
 * their metrics on {@link #registry()} before the server starts.
 * <ul>
 *   <li>{@code veracity_http_requests_total{route, status}}: requests answered, by route and HTTP status;</li>
 *   <li>{@code veracity_http_request_duration_seconds{route}}: time from arrival to answer;</li>
 *   <li>{@code veracity_http_requests_in_flight}: requests being handled now.</li>
 * </ul>
 * The {@code route} label is the route's path, or {@code other} for paths that are no route, so a client cannot grow
 * the label set by inventing URLs.
 */
public final class ServerMetrics {

    /** Prometheus text format 0.0.4, which every scraper reads. */
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Counter requests;
    private final Histogram latency;
    private final Gauge inFlight;

    public ServerMetrics() {
        requests = Counter.builder().name("veracity_http_requests").help("HTTP requests answered, by route and status")
                .labelNames("route", "status").register(registry);
        latency = Histogram.builder().name("veracity_http_request_duration_seconds")
                .help("Time from a request's arrival to its answer").labelNames("route").classicOnly()
                .classicUpperBounds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
                .register(registry);
        inFlight = Gauge.builder().name("veracity_http_requests_in_flight").help("Requests being handled now")
                .register(registry);
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    void started() {
        inFlight.inc();
    }

    void answered(String route, int status, long startedNanos) {
        inFlight.dec();
        requests.labelValues(route, Integer.toString(status)).inc();
        latency.labelValues(route).observe((System.nanoTime() - startedNanos) / 1e9);
    }

    /** Everything registered, in the Prometheus text format. */
    public byte[] scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            writer.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
