package dev.veracity.llm.openai;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * Reads how long a server asked us to wait: OpenAI's {@code retry-after-ms}, else HTTP {@code Retry-After} in
 * seconds or as an HTTP date. Anything unreadable is ignored (the client then backs off on its own).
 */
final class RetryAfter {

    private RetryAfter() {
    }

    static Optional<Duration> parse(List<String> retryAfterMs, List<String> retryAfter) {
        for (String v : retryAfterMs) {
            try {
                double ms = Double.parseDouble(v.trim());
                if (ms >= 0 && Double.isFinite(ms)) {
                    return Optional.of(Duration.ofNanos((long) (ms * 1_000_000)));
                }
            } catch (NumberFormatException ignored) {
                // try the next header
            }
        }
        for (String v : retryAfter) {
            String s = v.trim();
            try {
                double seconds = Double.parseDouble(s);
                if (seconds >= 0 && Double.isFinite(seconds)) {
                    return Optional.of(Duration.ofMillis((long) (seconds * 1000)));
                }
            } catch (NumberFormatException notSeconds) {
                try {
                    ZonedDateTime at = ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME);
                    Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
                    return Optional.of(d.isNegative() ? Duration.ZERO : d);
                } catch (DateTimeParseException ignored) {
                    // unreadable: no hint
                }
            }
        }
        return Optional.empty();
    }
}
