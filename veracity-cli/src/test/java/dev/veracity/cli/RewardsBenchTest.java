package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A smoke run of {@code veracity bench rewards} with tiny numbers: it runs both parts and counts no error. */
class RewardsBenchTest {

    @Test
    void aTinyRunMeasuresBothRewardsWithoutErrors() {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = VeracityCli.commandLine().execute("bench", "rewards", "--requests", "40", "--clients", "4",
                    "--warmup", "10", "--march-requests", "8", "--checker-concurrency", "4,16", "--latency-ms", "20");
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        assertThat(out).contains("== truthrl-ternary: 40 OpenRLHF requests (one sample each) from 4 clients")
                .contains("checker concurrency 4").contains("checker concurrency 16")
                .contains("4.0 model calls per reward");
        assertThat(out.lines().filter(l -> l.contains("requests/s")).toList()).hasSize(3)
                .allSatisfy(l -> assertThat(l).contains("errors 0, fallbacks 0"));
    }
}
