package dev.veracity.methods.c3po;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One question's retrieval: pages of {@code pageSize} passages per query, cached for the question (every branch of
 * a rollout tree that issues a query shares one search).
 *
 * <p>The next-10 rule (the authors' {@code retrieve_times}): the n-th time a path issues the same query it gets the
 * passages ranked {@code n*10 .. n*10+9}, so re-asking brings new documents. The authors ask their server for the
 * top {@code (n+1)*10} and slice; so do we, and a cached list that already holds the page (or is shorter than it
 * asked, so the corpus has no more) answers without a search.
 */
public final class SearchCache {

    /** The authors' {@code retrieve_top_k}. */
    public static final int PAGE_SIZE = 10;

    private final Retriever retriever;
    private final int pageSize;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicInteger searches = new AtomicInteger();

    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock(); // not synchronized: searches block virtual threads
        List<Passage> passages = List.of();
        int asked;
    }

    public SearchCache(Retriever retriever, int pageSize) {
        this.retriever = Objects.requireNonNull(retriever, "retriever");
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be >= 1");
        }
        this.pageSize = pageSize;
    }

    /**
     * The {@code times}-th page (from 0) of the query's ranking, as documents. A retriever failure propagates (the
     * caller records the branch as failed); it is not cached, so a later ask searches again.
     */
    public List<Doc> page(String query, int times) {
        if (times < 0) {
            throw new IllegalArgumentException("times must be >= 0");
        }
        int need = (times + 1) * pageSize;
        Entry e = entries.computeIfAbsent(query, q -> new Entry());
        List<Passage> list;
        e.lock.lock();
        try {
            if (e.asked < need && e.passages.size() >= e.asked) {
                searches.incrementAndGet();
                e.passages = List.copyOf(retriever.search(query, need));
                e.asked = need;
            }
            list = e.passages;
        } finally {
            e.lock.unlock();
        }
        int from = Math.min(times * pageSize, list.size());
        int to = Math.min(need, list.size());
        return list.subList(from, to).stream().map(p -> new Doc(p.id(), p.title(), p.text())).toList();
    }

    /** Searches made so far (cache misses). */
    public int searches() {
        return searches.get();
    }
}
