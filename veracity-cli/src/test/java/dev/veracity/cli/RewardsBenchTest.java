package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A smoke run of {@code veracity bench rewards} with tiny numbers: it runs both parts and counts no error. */
class RewardsBenchTest {

    @Test
    void aTinyRunMeasuresBothRewardsWithoutErrors() {
        CliRun.Result r = CliRun.run("bench", "rewards", "--requests", "40", "--clients", "4",
                "--warmup", "10", "--march-requests", "8", "--checker-concurrency", "4,16", "--latency-ms", "20");
        String out = r.out();
        assertThat(r.code()).as(out).isZero();
        assertThat(out).contains("== truthrl-ternary: 40 OpenRLHF requests (one sample each) from 4 clients")
                .contains("checker concurrency 4").contains("checker concurrency 16")
                .contains("4.0 model calls per reward");
        assertThat(out.lines().filter(l -> l.contains("requests/s") && !l.contains("target")).toList()).hasSize(3)
                .allSatisfy(l -> assertThat(l).contains("errors 0, fallbacks 0"));
        // the figure from before issue 30 beside its throughput (march's only at the README's 64 clients, 100 ms)
        assertThat(out.lines().filter(l -> l.contains("target >=")).toList()).singleElement().asString()
                .startsWith("   requests/s, as before issue 30: ").contains("target >= 4,350   ratio ");
    }
}
