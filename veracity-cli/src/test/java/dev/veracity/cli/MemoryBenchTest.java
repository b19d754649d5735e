package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = VeracityCli.commandLine().execute("bench", "memory", "--questions", "30", "--out", tmp.toString());
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        assertThat(out).contains("done: 30 answered, 0 failed", "run loaded, its table held (RunDir.load)",
                "(30 answered questions in the table", "eval's closing table", "compare run run-b --baseline run (1)",
                "compare run run-b --baseline run (2)", "report run run-b", "Paired differences against run");
        // every third prediction of run-b was made right: the paired difference finds them
        assertThat(out).containsPattern("run-b +strict-multi +\\+0\\.\\d{3} .* better on 10, worse on 0");
        assertThat(tmp.resolve("report/index.html")).isRegularFile();
        assertThat(Files.isRegularFile(tmp.resolve("report/run-b/index.html"))).isTrue();
    }
}
