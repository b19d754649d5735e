package dev.veracity.concurrent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs independent work concurrently, one virtual thread per item: the agents of a debate round, the samples of
 * a checker. Model calls inside are bounded by their client's concurrency limit, not here.
 */
public final class Parallel {

    private Parallel() {
    }

    /**
     * Applies {@code fn} to every item concurrently and returns the results in the items' order. Waits for all;
     * if any failed, rethrows the first failure in item order (unchecked exceptions as they are).
     */
    public static <T, R> List<R> map(Collection<T> items, Function<? super T, ? extends R> fn) {
        if (items.size() == 1) {
            return List.of(fn.apply(items.iterator().next()));
        }
        List<Future<R>> futures = new ArrayList<>(items.size());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (T item : items) {
                futures.add(pool.submit(() -> fn.apply(item)));
            }
        }
        List<R> out = new ArrayList<>(items.size());
        for (Future<R> f : futures) {
            try {
                out.add(f.get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException re) {
                    throw re;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for parallel work", e);
            }
        }
        return out;
    }
}
