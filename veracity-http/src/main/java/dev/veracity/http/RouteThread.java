package dev.veracity.http;

/**
 * The thread running one route, which the deadline timer, a failed connection or the server's stop may interrupt,
 * but only while the route runs: once it has left, the same virtual thread may be doing Jetty's work, which an
 * interrupt must not reach.
 */
final class RouteThread {

    private final Thread thread = Thread.currentThread();
    private boolean inRoute = true;
    private boolean cancelled;

    /** Marks the route cancelled by the server's stop; false when it already was. */
    synchronized boolean cancel() {
        if (cancelled) {
            return false;
        }
        cancelled = true;
        return true;
    }

    synchronized void interrupt() {
        if (inRoute) {
            thread.interrupt();
        }
    }

    /** Called by the route's own thread when it is done; clears an interrupt that came in the meantime. */
    void leave() {
        synchronized (this) {
            inRoute = false;
        }
        Thread.interrupted();
    }
}
