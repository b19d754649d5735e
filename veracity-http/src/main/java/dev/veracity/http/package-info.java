/**
 * The HTTP plumbing every Veracity server shares, on Jetty 12 with a virtual thread per request
 * ({@link dev.veracity.http.JsonServer}):
 * <ul>
 *   <li>JSON routes ({@link dev.veracity.http.JsonRoute}: a {@link dev.veracity.http.JsonCall} in, a
 *       {@link dev.veracity.http.JsonReply} out, a refusal as an {@link dev.veracity.http.HttpProblem});</li>
 *   <li>{@link dev.veracity.http.ServerLimits}: body size (413), batch size (413), concurrent requests (429 after a
 *       queue wait), a request deadline (503, the route interrupted), idle connections, the stop's grace period;</li>
 *   <li>one error shape ({@link dev.veracity.http.ErrorBody}, OpenAI's), {@code GET /health}, Prometheus
 *       {@code GET /metrics} ({@link dev.veracity.http.ServerMetrics}), a log of one line per event
 *       ({@link dev.veracity.http.ServerLog});</li>
 *   <li>a graceful stop that frees the port at once and cancels what is still running after the grace period.</li>
 * </ul>
 */
package dev.veracity.http;
