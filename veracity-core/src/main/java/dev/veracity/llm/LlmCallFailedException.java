package dev.veracity.llm;

import java.time.Duration;
import java.util.List;

/**
 * A call that failed for good: retries were exhausted or the error was not retryable. It carries every
 * attempt's error so the user sees the whole story, and its message says what to do.
 */
public final class LlmCallFailedException extends LlmException {

    private final List<LlmException> attempts;
    private final Duration elapsed;

    public LlmCallFailedException(String target, List<LlmException> attempts, Duration elapsed) {
        super(attempts.getLast().kind(), describe(target, attempts, elapsed),
                attempts.getLast().httpStatus().isPresent() ? attempts.getLast().httpStatus().getAsInt() : null,
                attempts.getLast().retryAfter().orElse(null), attempts.getLast());
        this.attempts = List.copyOf(attempts);
        this.elapsed = elapsed;
    }

    /** Every attempt's error, in order. */
    public List<LlmException> attempts() {
        return attempts;
    }

    public Duration elapsed() {
        return elapsed;
    }

    private static String describe(String target, List<LlmException> attempts, Duration elapsed) {
        LlmException last = attempts.getLast();
        StringBuilder sb = new StringBuilder();
        sb.append("Model call to ").append(target).append(" failed after ").append(attempts.size())
                .append(attempts.size() == 1 ? " attempt" : " attempts").append(" in ")
                .append(elapsed.toMillis()).append(" ms: ").append(last.summary());
        if (attempts.size() > 1) {
            sb.append(". Attempts:");
            for (LlmException a : attempts) {
                sb.append(' ').append(a.kind()).append(a.httpStatus().isPresent() ? "/" + a.httpStatus().getAsInt() : "");
            }
        }
        sb.append(". What to do: ").append(last.kind().advice())
                .append(last.retryable() ? " (or raise the retry limit)." : ".");
        return sb.toString();
    }
}
