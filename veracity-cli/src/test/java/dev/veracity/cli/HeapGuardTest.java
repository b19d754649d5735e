package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A heap too small for the work stops the process with one line that names the command, the heap it had and what to
 * pass, and exit code {@link HeapGuard#EXIT}: never a stack trace, never minutes of collecting. Behaviour, in JVMs of
 * their own with small heaps; no timing is asserted.
 */
class HeapGuardTest {

    @TempDir
    Path tmp;

    @Test
    void aProcessWhoseWorkOutgrowsItsHeapStopsWithOneLineNamingTheHeapAndWhatToPass() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(CliProcess.launcherJvmFlags());
        cmd.addAll(List.of("-Xmx32m", "-cp", System.getProperty("java.class.path"), HeapGuardProbe.class.getName(), "4"));
        Path err = tmp.resolve("err.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("a guard, not a measure: the probe ends").isTrue();

        assertThat(p.exitValue()).isEqualTo(HeapGuard.EXIT);
        String text = Files.readString(err);
        assertThat(text.lines().toList()).as(text).hasSize(1);
        assertThat(text).startsWith("veracity probe: the heap is too small for this work (32 MB; ")
                .contains("run it again with a larger one, e.g. JAVA_TOOL_OPTIONS=-Xmx256m")
                .doesNotContain("Exception", "\tat ");
    }

    @Test
    void compareAskedForMoreThanItsHeapHoldsStopsWithTheLineInsteadOfAStackTrace() throws IOException, InterruptedException {
        Path run = tmp.resolve("run");
        Files.createDirectories(run);
        Files.writeString(run.resolve("summary.json"), "{\"method\": \"no-rag\", \"metrics\": {\"em\": 0.5}, \"n\": 2}");
        Files.write(run.resolve("results.jsonl"), List.of(
                "{\"id\": \"a\", \"prediction\": \"Paris\", \"gold\": [\"Paris\"], \"metrics\": {\"em\": 1.0}}",
                "{\"id\": \"b\", \"prediction\": \"Rome\", \"gold\": [\"Paris\"], \"metrics\": {\"em\": 0.0}}"));

        // 200 million resamples: an array of 1.6 GB for the bootstrap, in a heap of 64 MB
        CliProcess.Ran ran = CliProcess.run(Map.of("JAVA_TOOL_OPTIONS", "-Xmx64m"), "compare", run.toString(),
                "--resamples", "200000000");

        assertThat(ran.code()).as(ran.err()).isEqualTo(HeapGuard.EXIT);
        List<String> lines = ran.err().lines().filter(l -> !l.startsWith("Picked up JAVA_TOOL_OPTIONS")).toList();
        assertThat(lines).as(ran.err()).containsExactly("veracity compare: the heap is too small for this work (64 MB;"
                + " an OutOfMemoryError); run it again with a larger one, e.g. JAVA_TOOL_OPTIONS=-Xmx256m");
        assertThat(ran.out()).isEmpty();
    }
}
