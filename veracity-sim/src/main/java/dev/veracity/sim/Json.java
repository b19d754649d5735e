package dev.veracity.sim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The simulator's shared Jackson objects (thread-safe once configured). */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonFactory FACTORY = MAPPER.getFactory();

    private Json() {
    }
}
