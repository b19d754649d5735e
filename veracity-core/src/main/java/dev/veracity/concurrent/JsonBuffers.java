package dev.veracity.concurrent;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Jackson's read and write buffers shared across virtual threads. Jackson 2 keeps them per thread by default, and a
 * virtual thread lives for one task, so every parse and every serialisation on one allocated fresh buffers (8 to
 * 16 KB; under {@code bench serve}, a quarter of all allocation). A pool hands them back and forth instead, as
 * Jackson 3 does by default. Bounded: a buffer is held only while one document is read or written, so a few hundred
 * cover any load, and a burst past them allocates as before instead of keeping its buffers for good.
 */
public final class JsonBuffers {

    /** Buffer sets kept for reuse; about 20-40 KB each once grown. */
    static final int POOLED = 256;

    private static final RecyclerPool<BufferRecycler> POOL = JsonRecyclerPools.newBoundedPool(POOLED);

    private JsonBuffers() {
    }

    /** Makes {@code mapper}'s factory take its buffers from the shared pool; returns the mapper. */
    public static <M extends ObjectMapper> M pooled(M mapper) {
        mapper.getFactory().setRecyclerPool(POOL);
        return mapper;
    }

    /** A plain mapper on the shared pool. */
    public static ObjectMapper mapper() {
        return pooled(new ObjectMapper());
    }
}
