package dev.veracity.eval.run;

import java.nio.file.Path;

/** A second process for {@link RunLockTest}: takes a run folder's lock, says so, and holds it until killed. */
public final class HoldRunLockMain {

    private HoldRunLockMain() {
    }

    public static void main(String[] args) throws Exception {
        try (RunLock lock = RunLock.acquire(Path.of(args[0]))) {
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
