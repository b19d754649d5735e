package dev.veracity.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class JsonBuffersTest {

    @Test
    void aSecondVirtualThreadGetsTheBuffersTheFirstGaveBack() throws Exception {
        ObjectMapper pooled = JsonBuffers.mapper();
        assertThat(recyclerOfOneVirtualThread(pooled)).isSameAs(recyclerOfOneVirtualThread(pooled));
        // the behaviour this replaces: Jackson's default pool is per thread, so each virtual thread starts empty
        ObjectMapper plain = new ObjectMapper();
        assertThat(recyclerOfOneVirtualThread(plain)).isNotSameAs(recyclerOfOneVirtualThread(plain));
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

    /** The recycler a parse on a fresh virtual thread used, given back to its pool as a parse's close does. */
    private static BufferRecycler recyclerOfOneVirtualThread(ObjectMapper m) throws InterruptedException {
        AtomicReference<BufferRecycler> seen = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            BufferRecycler r = m.getFactory()._getBufferRecycler();
            seen.set(r);
            r.releaseToPool();
        }).join();
        return seen.get();
    }
}
