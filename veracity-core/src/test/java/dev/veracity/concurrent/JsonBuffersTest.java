package dev.veracity.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JsonBuffersTest {

    private static final int THREADS = 2 * JsonBuffers.POOLED;

    @Test
    void virtualThreadsOneAfterAnotherReuseBuffersFromThePool() throws Exception {
        // The pool is shared by the whole JVM, so other tests may have left some buffers in it: at most POOLED distinct
        // ones can come back from it, however many threads ask.
        assertThat(distinctRecyclers(JsonBuffers.mapper())).isLessThanOrEqualTo(JsonBuffers.POOLED);
        // the behaviour this replaces: Jackson's default pool is per thread, so each virtual thread starts empty
        assertThat(distinctRecyclers(new ObjectMapper())).isEqualTo(THREADS);
    }

    @Test
    void pooledMappersStillReadAndWrite() throws Exception {
        ObjectMapper m = JsonBuffers.pooled(new ObjectMapper());
        for (int i = 0; i < 3; i++) {
            String json = m.writeValueAsString(m.createObjectNode().put("n", i).put("text", "x".repeat(20_000)));
            assertThat(m.readTree(json).get("n").asInt()).isEqualTo(i);
            assertThat(m.readTree(json).get("text").asText()).hasSize(20_000);
        }
    }

    /** How many different buffer sets {@code THREADS} virtual threads, one after another, each used and gave back. */
    private static int distinctRecyclers(ObjectMapper m) throws InterruptedException {
        Set<BufferRecycler> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < THREADS; i++) {
            Thread.ofVirtual().start(() -> {
                BufferRecycler r = m.getFactory()._getBufferRecycler();
                synchronized (seen) {
                    seen.add(r);
                }
                r.releaseToPool();
            }).join();
        }
        return seen.size();
    }
}
