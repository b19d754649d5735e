package dev.veracity.sim;

import dev.veracity.testing.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManualClockTest {

    private static CompletableFuture<Boolean> sleep(ManualClock clock, Duration d, CountDownLatch closing) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return clock.await(d.toNanos(), closing);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, Executors.newVirtualThreadPerTaskExecutor());
    }

    @Test
    void aSleeperWakesWhenTheClockReachesItsTimeAndNotBefore() throws Exception {
        ManualClock clock = new ManualClock();
        CountDownLatch open = new CountDownLatch(1);
        CompletableFuture<Boolean> short_ = sleep(clock, Duration.ofMillis(50), open);
        CompletableFuture<Boolean> long_ = sleep(clock, Duration.ofMillis(120), open);
        assertThat(clock.awaitSleeping(2, Await.GUARD)).isTrue();
        assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(50), Duration.ofMillis(120));

        clock.advance(Duration.ofMillis(49));
        assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(1), Duration.ofMillis(71));
        assertThat(short_).isNotDone();
        clock.advance(Duration.ofMillis(1));
        assertThat(short_.get()).as("woke by time, not by closing").isFalse();
        assertThat(clock.sleeping()).containsExactly(Duration.ofMillis(70));
        assertThat(long_).isNotDone();
        clock.advance(Duration.ofMillis(70));
        assertThat(long_.get()).isFalse();
        assertThat(clock.nanoTime()).isEqualTo(Duration.ofMillis(120).toNanos());
        assertThat(clock.awaitSleeping(0, Await.GUARD)).isTrue();
    }

    @Test
    void closingWakesASleeperAndForeverIsAllowed() throws Exception {
        ManualClock clock = new ManualClock();
        CountDownLatch closing = new CountDownLatch(1);
        CompletableFuture<Boolean> forever = sleep(clock, Duration.ofNanos(Long.MAX_VALUE), closing);
        assertThat(clock.awaitSleeping(1, Await.GUARD)).isTrue();
        clock.advance(Duration.ofDays(365));
        assertThat(forever).isNotDone();
        closing.countDown();
        assertThat(forever.get()).as("woke by closing").isTrue();
        assertThat(clock.sleeping()).isEmpty();
    }

    @Test
    void zeroOrNegativeDoesNotWaitAndTimeDoesNotGoBack() throws Exception {
        ManualClock clock = new ManualClock();
        assertThat(clock.await(0, new CountDownLatch(1))).isFalse();
        assertThat(clock.await(-5, new CountDownLatch(1))).isFalse();
        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1))).hasMessageContaining("does not go back");
    }
}
