package dev.veracity.retrieval;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Pages by title, the Wikipedia a ReAct agent acts in (Reasoning Court's {@code Search[entity]}, {@code Lookup[x]}):
 * an exact title lookup and the titles nearest to a name that has no page. Implementations (in
 * {@code veracity-retrieval}: {@code PageStore}, an index on disk from a Wikipedia dump; {@code QuestionPageSource}, a
 * question's paragraphs in memory) are thread-safe.
 */
public interface PageSource extends AutoCloseable {

    /**
     * One page.
     *
     * @param title      its title as written
     * @param paragraphs its paragraphs, in order
     * @param sentences  its sentences, in order, over all paragraphs
     */
    record Page(String title, List<String> paragraphs, List<String> sentences) {

        public Page {
            Objects.requireNonNull(title, "title");
            paragraphs = List.copyOf(paragraphs);
            sentences = List.copyOf(sentences);
        }
    }

    /** The page whose title matches {@code title} (the store says how titles are normalised), if any. */
    Optional<Page> page(String title);

    /** Up to {@code n} titles of pages nearest to {@code query}, best first. */
    List<String> similarTitles(String query, int n);

    /** How many pages it holds. */
    long size();

    @Override
    default void close() {
    }
}
