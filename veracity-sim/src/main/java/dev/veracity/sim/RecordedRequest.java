package dev.veracity.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * A request as the simulator received it, kept so tests can assert what a client actually sent.
 *
 * @param sequence arrival number, from 0
 * @param method   HTTP method
 * @param path     request path, without the query
 * @param headers  request headers, case-insensitive, without {@code Authorization}
 * @param body     the parsed JSON body; a {@code MissingNode} when there was none or it was not JSON.
 *                 Shared, not copied: do not modify.
 */
public record RecordedRequest(long sequence, String method, String path, Map<String, List<String>> headers, JsonNode body) {

    /** The first value of a header (case-insensitive), or {@code null}. */
    public String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }
}
