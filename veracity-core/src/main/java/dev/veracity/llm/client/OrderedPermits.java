package dev.veracity.llm.client;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The model client's slots: at most {@code limit} calls hold one, and a freed slot goes to the waiting call of the
 * lowest rank: the earliest question's ({@link dev.veracity.trace.CallContext#order()}) unless its run ranks its calls
 * otherwise ({@link CallRanking}), among equals to the one that waited longest.
 * A fair semaphore serves calls in arrival order, so a run that admits more questions than slots (to keep them
 * busy while some questions work between calls) would spread the slots over every admitted question and finish
 * them all late, its last ones last; served by question, the earlier questions run as if alone and the later ones
 * take the slots they leave. A slot is handed to its waiter on release (no barging), as a fair semaphore does.
 */
final class OrderedPermits {

    /** A call waiting for a slot. */
    private static final class Waiter {
        final long order;
        final long arrival;
        final Condition granted;
        boolean holds;

        Waiter(long order, long arrival, Condition granted) {
            this.order = order;
            this.arrival = arrival;
            this.granted = granted;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Waiter> waiting = new PriorityQueue<>(
            Comparator.<Waiter>comparingLong(w -> w.order).thenComparingLong(w -> w.arrival));
    private int free;
    private long arrivals;

    OrderedPermits(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1, was " + limit);
        }
        this.free = limit;
    }

    /** Takes a slot, waiting behind the calls of earlier questions (and earlier calls of the same place). */
    void acquire(long order) throws InterruptedException {
        lock.lock();
        try {
            if (free > 0 && waiting.isEmpty()) {
                free--;
                return;
            }
            Waiter w = new Waiter(order, arrivals++, lock.newCondition());
            waiting.add(w);
            try {
                while (!w.holds) {
                    w.granted.await();
                }
            } catch (InterruptedException e) {
                if (w.holds) {
                    handOn(); // granted as it was interrupted: the slot goes to the next waiter
                } else {
                    waiting.remove(w);
                }
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Gives a slot back: to the first waiter in order, else to the free ones. */
    void release() {
        lock.lock();
        try {
            handOn();
        } finally {
            lock.unlock();
        }
    }

    /** Adds {@code n} slots (an adaptive limit grew): waiters take them first. */
    void grow(int n) {
        lock.lock();
        try {
            for (int i = 0; i < n; i++) {
                handOn();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes {@code n} slots away (an adaptive limit shrank): free ones at once; past them, slots in use are kept when
     * given back, until the calls holding one are within the new limit.
     */
    void shrink(int n) {
        lock.lock();
        try {
            free -= n;
        } finally {
            lock.unlock();
        }
    }

    /** A slot if one is free now and no call waits for one, else false. */
    boolean tryAcquire() {
        lock.lock();
        try {
            if (free > 0 && waiting.isEmpty()) {
                free--;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void handOn() {
        if (free < 0) {
            free++; // the limit shrank below the slots in use: this one is not handed on
            return;
        }
        Waiter next = waiting.poll();
        if (next == null) {
            free++;
        } else {
            next.holds = true;
            next.granted.signal();
        }
    }

    /** Calls waiting for a slot (for tests and counters). */
    int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }
}
