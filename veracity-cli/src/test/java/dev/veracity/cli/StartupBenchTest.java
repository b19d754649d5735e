package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bench startup} starts eval processes against its simulator and prints the time around their calls beside the
 * issue's targets; the times of one process are read from its own traces. Figures are not asserted (benches measure).
 */
class StartupBenchTest {

    @Test
    void benchStartsEvalProcessesAndPrintsBothTargets() {
        CliRun.Result r = CliRun.run("bench", "startup", "--runs", "1", "--latency-ms", "5");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("1 processes started", "launch to first model call:", "last call to process gone:",
                "first model call after launch, median:", "target <= 500 ms",
                "process gone after the last call returns, median:", "target <= 100 ms");
    }

    @Test
    void aProcesssTimesAreItsFirstCallsSubmissionAndItsLastCallsEnd() {
        EvalProcess.Times t = new EvalProcess.Times(0, 1_000_000, 1_400_000, 2_500_000, 2_560_000, 7);
        assertThat(t.firstCallMs()).isEqualTo(400.0);
        assertThat(t.exitMs()).isEqualTo(60.0);
        assertThat(t.wholeMs()).isEqualTo(1560.0);
        assertThat(LlmBench.median(new double[] {5, 1, 3, 2})).isEqualTo(2.5);
        assertThat(EvalProcess.throughLauncher(List.of("/repo/veracity", "eval"))).isTrue();
        assertThat(EvalProcess.throughLauncher(List.of("/usr/bin/java", "-cp", "x"))).isFalse();
    }
}
