package dev.veracity.eval.metrics;

/**
 * A user-facing error from {@link ScoreFile}: the message names the file, the line number where there is one,
 * and what is wrong; print it, not the stack trace.
 */
public final class ScoreFileException extends RuntimeException {

    public ScoreFileException(String message) {
        super(message);
    }

    public ScoreFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
