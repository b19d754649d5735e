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

    /** The probe in a JVM of its own at 32 MB, as the launcher starts the CLI: its exit code and standard error. */
    private CliProcess.Ran probe(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(CliProcess.launcherJvmFlags());
        cmd.addAll(List.of("-Xmx32m", "-cp", System.getProperty("java.class.path"), HeapGuardProbe.class.getName()));
        cmd.addAll(List.of(args));
        Path err = tmp.resolve("err.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("a guard, not a measure: the probe " + args[0] + " was still collecting after 180 s");
        }
        return new CliProcess.Ran(p.exitValue(), "", Files.readString(err));
    }

    @Test
    void onlyTheHeapsOwnErrorsAreTakenForAHeapTooSmall() {
        assertThat(HeapGuard.outOfMemory(new java.io.UncheckedIOException(new java.io.IOException("wrapped",
                new OutOfMemoryError("Java heap space"))))).isTrue();
        assertThat(HeapGuard.outOfMemory(new OutOfMemoryError("GC overhead limit exceeded"))).isTrue();
        // a file that cannot be mapped, a thread that cannot be made: a larger heap would not help
        assertThat(HeapGuard.outOfMemory(new java.io.IOException("Map failed", new OutOfMemoryError("Map failed"))))
                .isFalse();
        assertThat(HeapGuard.outOfMemory(new OutOfMemoryError("unable to create native thread: possibly out of memory")))
                .isFalse();
        assertThat(HeapGuard.outOfMemory(new IllegalStateException("no error at all"))).isFalse();
    }

    @Test
    void aProcessWhoseWorkOutgrowsItsHeapStopsWithOneLineNamingTheHeapAndWhatToPass() throws Exception {
        CliProcess.Ran ran = probe("grow", "4");

        assertThat(ran.code()).as(ran.err()).isEqualTo(HeapGuard.EXIT);
        assertThat(ran.err().lines().toList()).as(ran.err()).hasSize(1);
        assertThat(ran.err()).startsWith("veracity probe: the heap is too small for this work (32 MB; ")
                .contains("run it again with a larger one, e.g. JAVA_TOOL_OPTIONS=-Xmx256m")
                .doesNotContain("Exception", "\tat ");
    }

    /** The JVM's own overhead limit never fires here: each full collection frees a little. */
    @Test
    void aProcessThatCollectsOverAndOverWithoutRunningOutIsStoppedByTheWatchdog() throws Exception {
        CliProcess.Ran ran = probe("churn", "60");

        assertThat(ran.code()).as(ran.err()).isEqualTo(HeapGuard.EXIT);
        assertThat(ran.err().lines().toList()).as(ran.err()).hasSize(1);
        assertThat(ran.err()).startsWith("veracity probe: the heap is too small for this work (32 MB; "
                        + HeapGuard.FULL_RUNS + " full collections in ")
                .contains("each leaving the heap over 90% full); run it again with a larger one, e.g."
                        + " JAVA_TOOL_OPTIONS=-Xmx256m");
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
