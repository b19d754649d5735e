package dev.veracity.retrieval.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes documents to one index with the bulk API, waiting out back-pressure: a bulk answered 429 as a whole, or with
 * items rejected 429 (the write queue full), is resent (only the rejected items) after a wait that doubles from
 * {@value #FIRST_WAIT_MS} ms up to {@value #MAX_WAIT_MS} ms, at most {@value #MAX_RETRIES} times, then fails with one
 * line. Any other item failure fails at once. One request at a time (the request in flight is the back-pressure).
 */
final class BulkWriter {

    static final long FIRST_WAIT_MS = 100;
    static final long MAX_WAIT_MS = 5_000;
    static final int MAX_RETRIES = 10;

    private final OpenSearchCluster cluster;
    private volatile long retries; // read by other threads (a test watching for back-pressure)

    BulkWriter(OpenSearchCluster cluster) {
        this.cluster = cluster;
    }

    /** Requests (or items) resent after a 429. */
    long retries() {
        return retries;
    }

    /** Indexes {@code sources} under {@code ids} (an existing id is replaced); {@code what} names them in errors. */
    void write(List<String> ids, List<ObjectNode> sources, String what) {
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            pending.add(i);
        }
        long wait = FIRST_WAIT_MS;
        for (int attempt = 0; !pending.isEmpty(); attempt++) {
            if (attempt > MAX_RETRIES) {
                throw new OpenSearchException("OpenSearch at " + cluster.location().baseUrl() + " kept refusing writes"
                        + " (429, queue full) after " + MAX_RETRIES + " retries: give the cluster more capacity or"
                        + " index with a smaller --batch; rerunning resumes");
            }
            if (attempt > 0) {
                retries++;
                sleep(wait);
                wait = Math.min(MAX_WAIT_MS, wait * 2);
            }
            OpenSearchCluster.Reply reply = cluster.ndjson("/" + cluster.location().index() + "/_bulk",
                    body(ids, sources, pending));
            List<Integer> rejected = new ArrayList<>();
            if (reply.status() == 429) {
                rejected = pending;
            } else if (!reply.ok()) {
                throw new OpenSearchException("bulk indexing into " + cluster.location() + " failed: " + reply.reason());
            } else if (reply.body().path("errors").asBoolean(false)) {
                JsonNode items = reply.body().path("items");
                for (int j = 0; j < pending.size(); j++) {
                    JsonNode item = items.path(j).path("index");
                    int status = item.path("status").asInt(500);
                    if (status == 429) {
                        rejected.add(pending.get(j));
                    } else if (status / 100 != 2) {
                        throw new OpenSearchException("OpenSearch refused " + what + " " + ids.get(pending.get(j))
                                + " in " + cluster.location() + ": " + item.path("error").path("reason")
                                .asText(item.path("error").asText("HTTP " + status)));
                    }
                }
            }
            pending = rejected;
        }
    }

    private static byte[] body(List<String> ids, List<ObjectNode> sources, List<Integer> which) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            for (int i : which) {
                ObjectNode action = OpenSearchCluster.JSON.createObjectNode();
                action.putObject("index").put("_id", ids.get(i));
                out.write(OpenSearchCluster.JSON.writeValueAsBytes(action));
                out.write('\n');
                out.write(OpenSearchCluster.JSON.writeValueAsBytes(sources.get(i)));
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OpenSearchException("bulk indexing interrupted while waiting out a 429; rerunning resumes");
        }
    }
}
