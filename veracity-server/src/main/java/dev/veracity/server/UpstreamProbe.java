package dev.veracity.server;

import dev.veracity.config.ApiKey;
import dev.veracity.config.Secrets;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether the upstream model server is reachable: {@code GET /models} answered 200 (as {@code eval}'s preflight asks).
 * The result is kept for a second, so that frequent readiness probes cost the upstream one request a second at most.
 */
public interface UpstreamProbe {

    /** Why the upstream is not ready, or empty when it is. */
    Optional<String> problem();

    /** Always ready (tests, or an upstream without a models endpoint). */
    UpstreamProbe READY = Optional::empty;

    /**
     * Ready when any of several upstream servers is (a client over them sends its calls to those that answer); with
     * none, each one's problem after its URL. One probe is itself.
     *
     * @param byUrl each server's probe by its base URL, in the order given
     */
    static UpstreamProbe anyOf(java.util.SequencedMap<String, UpstreamProbe> byUrl) {
        if (byUrl.size() == 1) {
            return byUrl.firstEntry().getValue();
        }
        return () -> {
            java.util.List<String> problems = new java.util.ArrayList<>();
            for (var e : byUrl.entrySet()) {
                Optional<String> problem = e.getValue().problem();
                if (problem.isEmpty()) {
                    return problem;
                }
                problems.add(e.getKey() + ": " + problem.get());
            }
            return Optional.of("none of the " + byUrl.size() + " upstreams is ready (" + String.join("; ", problems)
                    + ")");
        };
    }

    /** {@code GET {baseUrl}/models} with the upstream key, within the timeout. */
    static UpstreamProbe models(String baseUrl, ApiKey key, Duration timeout) {
        String url = (baseUrl.endsWith("/") ? baseUrl : baseUrl + "/") + "models";
        return new UpstreamProbe() {
            private volatile long checkedAt = Long.MIN_VALUE;
            private volatile Optional<String> last = Optional.empty();

            @Override
            public synchronized Optional<String> problem() {
                long now = System.nanoTime();
                if (checkedAt != Long.MIN_VALUE && now - checkedAt < 1_000_000_000L) {
                    return last;
                }
                last = check();
                checkedAt = System.nanoTime();
                return last;
            }

            private Optional<String> check() {
                try {
                    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
                    c.setConnectTimeout((int) timeout.toMillis());
                    c.setReadTimeout((int) timeout.toMillis());
                    if (key != null) {
                        c.setRequestProperty("Authorization", "Bearer " + key.reveal());
                    }
                    int status = c.getResponseCode();
                    c.disconnect();
                    return status == 200 ? Optional.empty() : Optional.of("the upstream answered GET /models with HTTP "
                            + status);
                } catch (IOException | IllegalArgumentException e) {
                    return Optional.of("the upstream is not reachable: " + Secrets.redact(
                            e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": "
                                    + e.getMessage()));
                }
            }
        };
    }
}
