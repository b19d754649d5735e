package dev.veracity.llm.cache;

import dev.veracity.llm.Completion;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Stores completions by {@link CacheKey}: one entry per sample index, so a request for samples 0..4 after one for
 * 0..2 reuses the first three and asks the model only for two.
 *
 * <p>It holds only good responses; the client decides what is stored ({@link dev.veracity.llm.client.LlmClient}):
 * never an empty text, a body that did not parse, or a completion that did not finish (finish reason unknown, or
 * "length" below the request's {@code max_tokens}). An entry whose text a method could not parse carries a mark
 * ({@link #markUnparseable}); the client treats a marked entry as a miss unless told to replay it, and the next
 * {@link #put} for the key replaces the entry and clears the mark.
 *
 * <p>Each entry keeps the token usage its sample had and the latency of the request that produced it, so that a call
 * the cache answers can still be counted at what it cost when it was made.
 */
public interface ResponseCache extends AutoCloseable {

    /** A cache that holds nothing. */
    ResponseCache NONE = new ResponseCache() {
        @Override
        public Optional<Entry> get(String key) {
            return Optional.empty();
        }

        @Override
        public void put(String key, Completion completion, OptionalLong latencyMicros) {
        }

        @Override
        public void markUnparseable(String key, String reason) {
        }
    };

    /**
     * A stored sample.
     *
     * @param completion    the sample (its sample index is 0: the caller renumbers it)
     * @param unparseable   why a method could not parse its text, when it was marked so
     * @param latencyMicros the latency of the request that produced it; empty for an entry stored without one
     */
    record Entry(Completion completion, Optional<String> unparseable, OptionalLong latencyMicros) {
        public Entry {
            Objects.requireNonNull(completion, "completion");
            unparseable = unparseable == null ? Optional.empty() : unparseable;
            latencyMicros = latencyMicros == null ? OptionalLong.empty() : latencyMicros;
        }

        public Entry(Completion completion, Optional<String> unparseable) {
            this(completion, unparseable, OptionalLong.empty());
        }

        public static Entry of(Completion completion) {
            return new Entry(completion, Optional.empty());
        }

        public boolean markedUnparseable() {
            return unparseable.isPresent();
        }
    }

    Optional<Entry> get(String key);

    /**
     * Stores a sample with the latency of the request that produced it, replacing any entry of the key (and with it a
     * mark).
     */
    void put(String key, Completion completion, OptionalLong latencyMicros);

    /** Stores a sample without a latency (a call that used it from the cache then has no model time). */
    default void put(String key, Completion completion) {
        put(key, completion, OptionalLong.empty());
    }

    /** Marks the key's entry as one a method could not parse; does nothing when there is no entry. */
    void markUnparseable(String key, String reason);

    @Override
    default void close() {
    }
}
