package dev.veracity.llm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetrySettingsTest {

    private final RetrySettings s = new RetrySettings(5, Duration.ofMillis(100), Duration.ofMillis(1000), 2.0, 0.2,
            Duration.ofSeconds(10));

    @Test
    void backsOffExponentiallyUpToTheCap() {
        assertThat(s.delayBefore(1, null, 0.5)).isEqualTo(Duration.ofMillis(100));
        assertThat(s.delayBefore(2, null, 0.5)).isEqualTo(Duration.ofMillis(200));
        assertThat(s.delayBefore(3, null, 0.5)).isEqualTo(Duration.ofMillis(400));
        assertThat(s.delayBefore(9, null, 0.5)).isEqualTo(Duration.ofMillis(1000));
    }

    @Test
    void jitterSpreadsTheWaitBothWays() {
        assertThat(s.delayBefore(2, null, 0.0)).isEqualTo(Duration.ofMillis(160));
        assertThat(s.delayBefore(2, null, 0.999999).toMillis()).isEqualTo(239);
    }

    @Test
    void retryAfterIsALowerBoundCappedByMaxRetryAfter() {
        assertThat(s.delayBefore(1, Duration.ofSeconds(3), 0.0)).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.delayBefore(1, Duration.ofMillis(10), 0.5)).isEqualTo(Duration.ofMillis(100));
        assertThat(s.delayBefore(1, Duration.ofMinutes(5), 0.5)).isEqualTo(Duration.ofSeconds(10));
    }
}
