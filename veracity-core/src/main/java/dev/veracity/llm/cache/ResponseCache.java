package dev.veracity.llm.cache;

import dev.veracity.llm.Completion;
import java.util.Optional;

/**
 * Stores completions by {@link CacheKey}: one entry per sample index, so a request for samples 0..4 after one for
 * 0..2 reuses the first three and asks the model only for two.
 */
public interface ResponseCache extends AutoCloseable {

    /** A cache that holds nothing. */
    ResponseCache NONE = new ResponseCache() {
        @Override
        public Optional<Completion> get(String key) {
            return Optional.empty();
        }

        @Override
        public void put(String key, Completion completion) {
        }
    };

    Optional<Completion> get(String key);

    void put(String key, Completion completion);

    @Override
    default void close() {
    }
}
