package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunBenchTest {

    @TempDir
    Path dir;

    @Test
    void eachMethodRunsThroughTheEvalRunnerAndPrintsItsWallTimeAgainstTheIdealFromItsTraces() {
        CliRun.Result r = CliRun.run("bench", "run", "--questions", "4", "--latency-ms", "20", "--warmup", "0",
                "--concurrency", "4", "--repeat", "2", "--out", dir.toString());
        System.out.println(r.out());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("plumbing, not a model", "client concurrency 4, 16 questions at once");
        for (String method : RunBench.METHODS) {
            // the run folder eval leaves, and its line: every question answered, the chain and ideal from the traces
            assertThat(dir.resolve(method).resolve("results.jsonl")).exists();
            assertThat(dir.resolve(method).resolve("traces.db")).exists();
            Matcher m = Pattern.compile(Pattern.quote(method) + " +4 questions \\(4 answered, 0 failed\\), (\\d+) calls,"
                    + " longest chain (\\d+) calls; ideal (\\d+) ms").matcher(r.out());
            assertThat(m.find()).as(method).isTrue();
            int calls = Integer.parseInt(m.group(1));
            int chain = Integer.parseInt(m.group(2));
            assertThat(chain).isBetween(1, calls);
            assertThat(Integer.parseInt(m.group(3))).isEqualTo(Math.max(chain * 20, calls * 20 / 4));
            // two measured runs, each with its line, and the target judged on their median
            assertThat(m.find()).as(method + "'s second run").isTrue();
            assertThat(r.out()).contains(method + " wall / ideal, median of 2 runs: ").contains("target <= 1.20x");
        }
    }
}
