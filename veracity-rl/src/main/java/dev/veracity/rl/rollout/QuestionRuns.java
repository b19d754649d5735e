package dev.veracity.rl.rollout;

import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a rollout's questions on virtual threads, at most {@code atOnce} at a time: each question's task returns its
 * progress line; a question whose task throws is reported ({@code id: message}) and left for a rerun, the others go
 * on. Shared by the C-3PO rollout and the online (AReaL) rollout.
 */
public final class QuestionRuns {

    private QuestionRuns() {
    }

    /** @return one line per failed question, {@code id: message} */
    public static List<String> run(List<QaItem> todo, int atOnce, Function<QaItem, String> task, Consumer<String> progress) {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Semaphore slots = new Semaphore(atOnce);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (QaItem item : todo) {
                slots.acquireUninterruptibly();
                pool.submit(() -> {
                    try {
                        progress.accept(task.apply(item));
                    } catch (RuntimeException e) {
                        failures.add(item.id() + ": " + e.getMessage());
                        progress.accept(item.id() + ": failed (" + e.getMessage() + "); a rerun retries it");
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        return List.copyOf(failures);
    }
}
