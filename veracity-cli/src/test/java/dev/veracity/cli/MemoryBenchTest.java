package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A smoke run of {@code veracity bench memory} with few questions: the eval, then every command that reads it. */
class MemoryBenchTest {

    @TempDir
    Path tmp;

    @Test
    void aTinyRunMeasuresTheEvalThenItsTableCompareAndReport() {
        CliRun.Result r = CliRun.run("bench", "memory", "--questions", "30", "--out", tmp.toString());
        String out = r.out();
        assertThat(r.code()).as(out).isZero();
        assertThat(out).contains("done: 30 answered, 0 failed", "two runs and a baseline loaded and held",
                "(30 answered questions a run", "heap growth per question per run, loaded and held (flat): ", "eval's closing table", "compare run run-b --baseline run (1)",
                "compare run run-b --baseline run (2)", "report run run-b", "Paired differences against run");
        // every third prediction of run-b was made right: the paired difference finds them
        // (the paired table's last columns: n, better, worse)
        assertThat(out).containsPattern("(?m)run-b +strict-multi +\\+0\\.\\d{3} .* 30 +10 +0$");
        // compare and report as users run them, in JVMs of their own at 64 MB: both fit
        assertThat(out).containsPattern("compare run run-b --baseline run \\([0-9.]+ s, exit 0\\): peak heap after GC: .*"
                + "target <= 64 MB .* met");
        assertThat(out).containsPattern("report run run-b \\([0-9.]+ s, exit 0\\): peak heap after GC: .* met");
        assertThat(tmp.resolve("report/index.html")).isRegularFile();
        assertThat(Files.isRegularFile(tmp.resolve("report/run-b/index.html"))).isTrue();
    }
}
