package dev.veracity.llm.client;

import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The model servers of one client and the choice among them. Each attempt goes to the server with the fewest
 * attempts outstanding (waiting for its own limit or in flight), ties broken round robin (a turn counter says where
 * each choice starts looking), so that idle servers share a sequential run's calls; a server that failed this request
 * already comes after every other that is in, so a retry goes elsewhere when it can; a server that is out
 * ({@link Ejection}) is passed over until its probe is due. With one server the pool is that server: no breaker, no
 * choice.
 *
 * <p>The cache key of a call names the pool, not the server that answered ({@link #cacheId()}): the servers serve the
 * same model, so a sample made by one is found whichever one the next call would go to.
 */
final class EndpointPool {

    private final List<Endpoint> endpoints;
    private final AtomicInteger turn = new AtomicInteger();
    private final String cacheId;

    EndpointPool(List<? extends LlmBackend> backends, ConcurrencyLimit concurrency, Ejection ejection) {
        if (backends.isEmpty()) {
            throw new IllegalArgumentException("a client needs at least one backend");
        }
        List<Endpoint> list = new ArrayList<>();
        for (LlmBackend b : backends) {
            list.add(new Endpoint(list.size(), b, concurrency, backends.size() == 1 ? null : ejection));
        }
        this.endpoints = List.copyOf(list);
        // sorted, so that the order the URLs were listed in does not change the keys
        this.cacheId = backends.size() == 1 ? backends.getFirst().id()
                : backends.stream().map(LlmBackend::id).collect(Collectors.toCollection(TreeSet::new)).stream()
                .collect(Collectors.joining(" | "));
    }

    /** The backend id the cache keys and the traces name: the only server's, else every server's, sorted. */
    String cacheId() {
        return cacheId;
    }

    List<Endpoint> endpoints() {
        return endpoints;
    }

    boolean single() {
        return endpoints.size() == 1;
    }

    /**
     * The server for one attempt, taken ({@link Endpoint#tryTake}).
     *
     * @param failedHere the servers this request's earlier attempts failed on (tried last)
     * @throws LlmException (retryable {@link ErrorKind#CONNECTION}) when every server is out and no probe is due
     */
    Endpoint choose(Set<Endpoint> failedHere) {
        int n = endpoints.size();
        if (n == 1) {
            Endpoint only = endpoints.getFirst();
            only.tryTake();
            return only;
        }
        synchronized (this) { // the counts read and the one taken move together: two choices never race to one
            return chooseAmong(failedHere, n);
        }
    }

    private Endpoint chooseAmong(Set<Endpoint> failedHere, int n) {
        int start = Math.floorMod(turn.getAndIncrement(), n);
        long[] rank = new long[n]; // a snapshot: the counts move while we sort
        List<Endpoint> order = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            Endpoint e = endpoints.get((start + k) % n);
            rank[e.index] = (failedHere.contains(e) ? 1L << 32 : 0) + e.outstanding.get();
            order.add(e);
        }
        order.sort(Comparator.comparingLong(e -> rank[e.index])); // stable: equals keep the round-robin order
        for (Endpoint e : order) {
            if (e.tryTake()) {
                return e;
            }
        }
        throw allOut();
    }

    private LlmException allOut() {
        Duration next = endpoints.stream().map(Endpoint::untilProbe).min(Comparator.naturalOrder())
                .orElse(Duration.ZERO);
        return new LlmException(ErrorKind.CONNECTION, "all " + endpoints.size() + " model servers are out after"
                + " failing repeatedly (" + endpoints.stream().map(Endpoint::id).collect(Collectors.joining(", "))
                + "); the next is probed in " + Math.max(1, (next.toMillis() + 999) / 1000) + " s");
    }

    /** What each server did, in the order they were given. */
    List<EndpointStats> stats() {
        return endpoints.stream().map(Endpoint::stats).toList();
    }
}
