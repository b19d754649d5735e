package dev.veracity.llm;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A typed failure of a model call: {@link #kind()} says what happened and whether a retry can help.
 *
 * <p>Messages never contain credentials: backends build them from status codes and server error texts, which
 * pass through {@link dev.veracity.config.Secrets#redact(String)}.
 */
public class LlmException extends RuntimeException {

    private final ErrorKind kind;
    private final Integer httpStatus;
    private final Duration retryAfter;

    public LlmException(ErrorKind kind, String message) {
        this(kind, message, null, null, null);
    }

    public LlmException(ErrorKind kind, String message, Throwable cause) {
        this(kind, message, null, null, cause);
    }

    public LlmException(ErrorKind kind, String message, Integer httpStatus, Duration retryAfter, Throwable cause) {
        super(dev.veracity.config.Secrets.redact(message), cause);
        this.kind = kind;
        this.httpStatus = httpStatus;
        this.retryAfter = retryAfter;
    }

    public ErrorKind kind() {
        return kind;
    }

    public boolean retryable() {
        return kind.retryable();
    }

    public OptionalInt httpStatus() {
        return httpStatus == null ? OptionalInt.empty() : OptionalInt.of(httpStatus);
    }

    /** How long the server asked us to wait (HTTP Retry-After), when it said. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** A one-line summary: kind, status and message. */
    public String summary() {
        return kind + (httpStatus == null ? "" : " (HTTP " + httpStatus + ")") + ": " + getMessage();
    }
}
