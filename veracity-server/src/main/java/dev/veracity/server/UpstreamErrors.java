package dev.veracity.server;

import dev.veracity.config.Secrets;
import dev.veracity.http.HttpProblem;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmCallFailedException;
import dev.veracity.llm.LlmException;
import java.util.Locale;

/**
 * What a client is told when its method failed: a failed upstream call (retries exhausted) is 502
 * {@code upstream_error}, 503 {@code upstream_busy} with {@code Retry-After} when the upstream was rate-limiting, 504
 * {@code upstream_timeout} when it did not answer in time; the message names the failure's kind and attempts, never the
 * upstream's address or credentials (the server's log has the whole story). A method's refusal of its input
 * ({@link IllegalArgumentException}) is a 400. A cancelled call is no failure: the request was cancelled.
 */
final class UpstreamErrors {

    private UpstreamErrors() {
    }

    /** Whether the failure is the request's own cancellation (deadline, client gone, stop) rather than an error. */
    static boolean cancelled(Throwable e) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException || (t instanceof LlmException l && l.kind() == ErrorKind.CANCELLED)) {
                return true;
            }
        }
        return false;
    }

    /** The client's answer for a method's failure, or null when it is a bug (the server's 500). */
    static HttpProblem toProblem(Throwable e) {
        LlmException llm = find(e);
        if (llm != null) {
            int attempts = llm instanceof LlmCallFailedException f ? f.attempts().size() : 1;
            String what = llm.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                    + llm.httpStatus().stream().mapToObj(s -> " (HTTP " + s + ")").findFirst().orElse("")
                    + " after " + attempts + (attempts == 1 ? " attempt" : " attempts");
            return switch (llm.kind()) {
                case RATE_LIMITED -> new HttpProblem(503, "upstream_busy", "the upstream model is rate-limiting: " + what
                        + "; retry later").withHeader("Retry-After", Long.toString(Math.max(1,
                        llm.retryAfter().map(d -> (d.toMillis() + 999) / 1000).orElse(1L))));
                case TIMEOUT -> new HttpProblem(504, "upstream_timeout", "the upstream model did not answer in time: " + what);
                default -> new HttpProblem(502, "upstream_error", "the upstream model failed: " + what);
            };
        }
        if (e instanceof IllegalArgumentException) {
            return new HttpProblem(400, "invalid_request", ClientText.quote(Secrets.redact(e.getMessage()), 1000));
        }
        return null;
    }

    /** The whole failure for the server's log, credentials masked. */
    static String forLog(Throwable e) {
        LlmException llm = find(e);
        Throwable t = llm != null ? llm : e;
        return Secrets.redact(t.getClass().getSimpleName() + ": " + t.getMessage());
    }

    private static LlmException find(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof LlmException l) {
                return l;
            }
        }
        return null;
    }
}
