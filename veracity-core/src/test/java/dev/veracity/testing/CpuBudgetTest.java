package dev.veracity.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The budget counts the CPU time of the work's own thread: computing past it fails, waiting never counts. */
class CpuBudgetTest {

    @Test
    void workThatKeepsComputingFailsAtItsBudget() {
        AtomicBoolean stop = new AtomicBoolean();
        try {
            assertThatThrownBy(() -> CpuBudget.run(Duration.ofMillis(50), "the spinner", () -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            })).isInstanceOf(AssertionError.class).hasMessage("the spinner used more than 50 ms of CPU time");
        } finally {
            stop.set(true); // the abandoned thread ends
        }
    }

    @Test
    void timeSpentNotComputingIsNotCounted() {
        // 300 ms asleep, as a thread on a busy machine waits for a core, is no work: a 50 ms budget holds
        String out = CpuBudget.call(Duration.ofMillis(50), "the sleeper", () -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return "woke";
        });
        assertThat(out).isEqualTo("woke");
    }

    @Test
    void workThatBlocksIsCalledBlockedAfterTheGuard() {
        AtomicBoolean stop = new AtomicBoolean();
        try {
            assertThatThrownBy(() -> CpuBudget.call(Duration.ofSeconds(5), Duration.ofMillis(200), "the waiter", () -> {
                while (!stop.get()) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return null;
                    }
                }
                return null;
            })).isInstanceOf(AssertionError.class).hasMessageStartingWith("the waiter has not finished after 200 ms, having used ")
                    .hasMessageEndingWith("ms of CPU time: it is blocked, not computing");
        } finally {
            stop.set(true);
        }
    }

    @Test
    void anAssertionInsideFailsAsItIsAndOtherThrowablesSayWhatThrew() {
        assertThatThrownBy(() -> CpuBudget.run(Duration.ofSeconds(5), "the check", () -> assertThat(1).isEqualTo(2)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("expected: 2");
        assertThatThrownBy(() -> CpuBudget.run(Duration.ofSeconds(5), "the parser", () -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(AssertionError.class).hasMessage("the parser threw java.lang.IllegalStateException: boom")
                .hasCauseInstanceOf(IllegalStateException.class);
    }
}
