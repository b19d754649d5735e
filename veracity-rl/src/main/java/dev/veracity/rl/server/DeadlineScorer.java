package dev.veracity.rl.server;

import dev.veracity.http.ServerLog;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import dev.veracity.rl.reward.RewardResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Scores a request's inputs so that the answer is ready by the deadline. A reward that calls a model scores each
 * input on its own virtual thread (at most {@code rewardsAtOnce} across the server); at the deadline the inputs not
 * done get the fallback score with the reason, and their threads are interrupted, which closes their model
 * connections. Other rewards (metrics, TruthRL: microseconds each) score in the request's thread, checking the deadline
 * between inputs. Every fallback is one line in the server log and counted in the metrics.
 */
final class DeadlineScorer implements AutoCloseable {

    /** A request's items: an input to score, or the reason it gets the fallback without being scored. */
    record Item(RewardInput input, String fallbackReason) {
        static Item score(RewardInput input) {
            return new Item(input, null);
        }

        static Item fallback(String reason) {
            return new Item(null, reason);
        }
    }

    private final Reward reward;
    private final boolean concurrent;
    private final RewardServerSettings settings;
    private final ServerLog log;
    private final RewardMetrics metrics;
    private final Semaphore places;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    DeadlineScorer(Reward reward, boolean concurrent, RewardServerSettings settings, ServerLog log, RewardMetrics metrics) {
        this.reward = reward;
        this.concurrent = concurrent;
        this.settings = settings;
        this.log = log;
        this.metrics = metrics;
        this.places = new Semaphore(settings.rewardsAtOnce());
    }

    /**
     * The results in item order, ready before {@code startedNanos + deadline} (less a margin to write the answer).
     *
     * @param door where the request came in (the log and metrics say it)
     * @throws InterruptedException when the request is cancelled (its client has gone, the server stops): the
     *                              inputs' work is cancelled and nothing is answered
     */
    List<RewardResult> score(String door, List<Item> items, long startedNanos) throws InterruptedException {
        long deadline = startedNanos + settings.deadline().toNanos() - margin();
        List<RewardResult> out = concurrent ? concurrently(items, deadline) : inline(items, deadline);
        for (int i = 0; i < out.size(); i++) {
            RewardResult r = out.get(i);
            metrics.record(door, r);
            if (r.isFallback()) {
                log.warn(String.format(Locale.ROOT, "%s %s item %d of %d: fallback score %s: %s", reward.name(), door,
                        i + 1, out.size(), r.score(), r.reason()));
            }
        }
        return out;
    }

    /** Time kept to write the answer: a tenth of the deadline, at most 100 ms. */
    private long margin() {
        return Math.min(TimeUnit.MILLISECONDS.toNanos(100), settings.deadline().toNanos() / 10);
    }

    private List<RewardResult> inline(List<Item> items, long deadline) throws InterruptedException {
        List<RewardResult> out = new ArrayList<>(items.size());
        for (Item item : items) {
            if (Thread.interrupted()) {
                throw new InterruptedException("the request was cancelled");
            }
            if (item.fallbackReason() != null) {
                out.add(fallback(item.fallbackReason()));
            } else if (System.nanoTime() - deadline > 0) {
                out.add(fallback(lateReason()));
            } else {
                out.add(reward.score(item.input()));
            }
        }
        return out;
    }

    private List<RewardResult> concurrently(List<Item> items, long deadline) throws InterruptedException {
        List<Future<RewardResult>> futures = new ArrayList<>(items.size());
        for (Item item : items) {
            futures.add(item.fallbackReason() != null ? null : threads.submit(() -> {
                places.acquire();
                try {
                    return reward.score(item.input());
                } finally {
                    places.release();
                }
            }));
        }
        RewardResult[] results = new RewardResult[items.size()];
        try {
            for (int i = 0; i < items.size(); i++) {
                Future<RewardResult> f = futures.get(i);
                if (f == null) {
                    results[i] = fallback(items.get(i).fallbackReason());
                    continue;
                }
                long left = deadline - System.nanoTime();
                try {
                    results[i] = left > 0 ? f.get(left, TimeUnit.NANOSECONDS) : done(f);
                } catch (TimeoutException e) {
                    results[i] = null;
                } catch (ExecutionException e) {
                    // Rewards are total; this is a bug in one, which must not take the batch down.
                    results[i] = fallback("the reward failed: " + e.getCause());
                }
            }
        } catch (InterruptedException e) {
            futures.forEach(f -> {
                if (f != null) {
                    f.cancel(true);
                }
            });
            throw e;
        }
        List<RewardResult> out = new ArrayList<>(items.size());
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                futures.get(i).cancel(true); // interrupts its model calls: their sockets close, their permits return
                out.add(fallback(lateReason()));
            } else {
                out.add(results[i]);
            }
        }
        return out;
    }

    /** The result of a future past the deadline if it is already there, else null. */
    private static RewardResult done(Future<RewardResult> f) throws ExecutionException, InterruptedException {
        if (!f.isDone() || f.isCancelled()) {
            return null;
        }
        try {
            return f.get();
        } catch (CancellationException e) {
            return null;
        }
    }

    private RewardResult fallback(String reason) {
        return RewardResult.fallback(settings.fallbackScore(), reason);
    }

    private String lateReason() {
        return "no reward within the server's deadline of " + settings.deadline().toMillis() + " ms";
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
