package dev.veracity.sim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The simulator's shared Jackson objects (thread-safe once configured). */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonFactory FACTORY = MAPPER.getFactory();

    static {
        // Each request runs on a new virtual thread: Jackson's default per-thread buffers would be allocated afresh
        // for every parse and write (as core's JsonBuffers does; this module does not depend on core).
        FACTORY.setRecyclerPool(JsonRecyclerPools.newBoundedPool(256));
    }

    private Json() {
    }
}
