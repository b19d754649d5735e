package dev.veracity.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallStatsTest {

    private static CallRecord call(String q, long submitted, long started, long ended, int tokens) {
        return new CallRecord(q + submitted, CallContext.of("r", q, "m"), "b", "m", "p", "{}", List.of("o"),
                List.of("STOP"), tokens, 1, 1, 0, 0, 0, 0, submitted, started, ended, false, 1, 0, null);
    }

    @Test
    void sequentialCallsChainAndConcurrentOnesDoNot() {
        // A debate round: 3 agents at once (100, 150, 120 us), then an aggregator (50 us), then 3 agents again.
        List<CallRecord> calls = List.of(
                call("q", 0, 0, 100, 1), call("q", 0, 0, 150, 1), call("q", 0, 0, 120, 1),
                call("q", 150, 150, 200, 1),
                call("q", 200, 200, 260, 1), call("q", 200, 200, 300, 1), call("q", 200, 210, 290, 1));

        CallStats s = CallStats.ofQuestion(calls);

        assertThat(s.calls()).isEqualTo(7);
        assertThat(s.criticalPath()).isEqualTo(Duration.ofNanos((150 + 50 + 100) * 1000));
        assertThat(s.wall()).isEqualTo(Duration.ofNanos(300 * 1000));
        assertThat(s.promptTokens()).isEqualTo(7);
    }

    @Test
    void queueingInTheClientIsNotOnTheCriticalPath() {
        // Two independent calls submitted together; the second waited 100 us for a permit.
        List<CallRecord> calls = List.of(call("q", 0, 0, 100, 1), call("q", 0, 100, 200, 1));
        assertThat(CallStats.ofQuestion(calls).criticalPath()).isEqualTo(Duration.ofNanos(100_000));
    }

    @Test
    void aRunsCriticalPathIsItsLongestQuestionsAndNeverExceedsItsWallTime() {
        // Two questions answered at once: a chains 100 + 50 us, b's single call overlaps both of a's.
        List<CallRecord> calls = List.of(call("a", 0, 0, 100, 1), call("a", 100, 100, 150, 1),
                call("b", 0, 0, 140, 2));
        Map<String, CallStats> per = CallStats.byQuestion(calls);
        assertThat(per.keySet()).containsExactly("a", "b");
        assertThat(per.get("a").criticalPath()).isEqualTo(Duration.ofNanos(150_000));
        assertThat(per.get("b").criticalPath()).isEqualTo(Duration.ofNanos(140_000));
        CallStats run = CallStats.ofRun(calls);
        // the sum (290 us) was reported before: nearly twice the 150 us the run took
        assertThat(run.criticalPath()).isEqualTo(Duration.ofNanos(150_000));
        assertThat(run.calls()).isEqualTo(3);
        assertThat(run.wall()).isEqualTo(Duration.ofNanos(150_000));
        assertThat(run.criticalPath()).isLessThanOrEqualTo(run.wall());
    }

    /** Any schedule of calls, however they overlap within and across questions: the critical path fits the wall time. */
    @net.jqwik.api.Property(tries = 300)
    void noScheduleMakesACriticalPathLongerThanTheWallTime(
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.Size(min = 1, max = 30) List<
                    @net.jqwik.api.constraints.IntRange(min = 0, max = 999_999) Integer> schedule) {
        List<CallRecord> calls = new java.util.ArrayList<>();
        for (int code : schedule) {
            long submitted = code % 100; // submitted, queued in the client, then the model's latency
            long queued = (code / 1000) % 10;
            long latency = 1 + (code / 10_000) % 100;
            calls.add(call("q" + (code % 3), submitted, submitted + queued, submitted + queued + latency, 1));
        }
        CallStats run = CallStats.ofRun(calls);
        assertThat(run.criticalPath()).isLessThanOrEqualTo(run.wall());
        CallStats.byQuestion(calls).values().forEach(q -> assertThat(q.criticalPath()).isLessThanOrEqualTo(q.wall()));
    }

    @Test
    void noCallsCostNothing() {
        assertThat(CallStats.ofRun(List.of())).isEqualTo(CallStats.EMPTY);
    }
}
