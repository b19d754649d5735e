package dev.veracity.rl.reward;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Applies a function to many items on virtual threads, at most {@code limit} at once, results in item order. The
 * permit is taken before a thread starts, so a batch of 100,000 inputs never holds more than {@code limit} threads
 * (model calls inside are further bounded by their client's concurrency limit).
 */
final class BoundedParallel {

    private BoundedParallel() {
    }

    static <T, R> List<R> map(List<T> items, int limit, Function<? super T, ? extends R> fn) {
        if (items.size() <= 1) {
            return items.stream().<R>map(fn).toList();
        }
        Semaphore permits = new Semaphore(limit);
        List<Future<R>> futures = new ArrayList<>(items.size());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (T item : items) {
                permits.acquireUninterruptibly();
                futures.add(pool.submit(() -> {
                    try {
                        return fn.apply(item);
                    } finally {
                        permits.release();
                    }
                }));
            }
        }
        List<R> out = new ArrayList<>(items.size());
        for (Future<R> f : futures) {
            try {
                out.add(f.get());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while scoring", e);
            }
        }
        return out;
    }
}
