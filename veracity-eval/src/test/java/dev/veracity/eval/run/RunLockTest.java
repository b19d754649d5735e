package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One eval at a time in a run folder: another process, or this one, is refused at once and told who holds it. */
class RunLockTest {

    @TempDir
    Path tmp;

    @Test
    void anotherProcessHoldingTheFolderIsNamedAndAKilledHolderLeavesNoLock() throws Exception {
        Path run = tmp.resolve("run");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process holder = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                HoldRunLockMain.class.getName(), run.toString())).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            String named = "is in use by another eval (pid " + holder.pid() + ", started ";
            assertThatThrownBy(() -> RunLock.requireFree(run)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(named).hasMessageEndingWith("wait for it to finish, or use another output folder");
            assertThatThrownBy(() -> RunLock.acquire(run)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(named);
        } finally {
            holder.destroyForcibly();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
        // SIGKILL: the operating system released the lock; the file stays and is reused
        RunLock.requireFree(run);
        try (RunLock lock = RunLock.acquire(run)) {
            assertThat(Files.readString(run.resolve(RunLock.FILE))).startsWith("pid " + ProcessHandle.current().pid());
        }
    }

    @Test
    void thisProcessHoldsAFolderOnceAndReleasesIt() throws Exception {
        Path run = tmp.resolve("a/b");
        RunLock.requireFree(run); // free, and nothing created
        assertThat(tmp.resolve("a")).doesNotExist();
        try (RunLock lock = RunLock.acquire(run)) {
            assertThat(run.resolve(RunLock.FILE)).exists();
            assertThatThrownBy(() -> RunLock.acquire(run.resolve("../b"))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pid " + ProcessHandle.current().pid());
            assertThatThrownBy(() -> RunLock.requireFree(run)).isInstanceOf(IllegalStateException.class);
            // refusing did not release the lock (closing a second channel to the file would, on POSIX)
            assertThatThrownBy(() -> RunLock.requireFree(run)).isInstanceOf(IllegalStateException.class);
        }
        RunLock.requireFree(run);
        RunLock.acquire(run).close();
    }
}
