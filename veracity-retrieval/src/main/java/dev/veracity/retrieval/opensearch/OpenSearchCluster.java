package dev.veracity.retrieval.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.message.BasicHeader;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.generic.Body;
import org.opensearch.client.opensearch.generic.OpenSearchGenericClient;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.transport.OpenSearchTransport;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;

/**
 * One connection to a cluster through the official client's transport (opensearch-java, Apache HttpClient 5:
 * pooling, TLS, credentials), with requests written as JSON through its generic client, so that mappings and queries
 * read as OpenSearch's documentation writes them. Thread-safe.
 */
final class OpenSearchCluster implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A response: its HTTP status and parsed body (an empty object when it has none). */
    record Reply(int status, JsonNode body) {
        boolean ok() {
            return status / 100 == 2;
        }

        /** OpenSearch's own reason for a failure, one line. */
        String reason() {
            JsonNode error = body.path("error");
            String r = error.isTextual() ? error.asText() : error.path("reason").asText(error.path("type").asText(""));
            return r.isEmpty() ? "HTTP " + status : r;
        }
    }

    private final OpenSearchLocation location;
    private final OpenSearchTransport transport;
    private final OpenSearchGenericClient client;

    OpenSearchCluster(OpenSearchLocation location) {
        this.location = location;
        ApacheHttpClient5TransportBuilder b = ApacheHttpClient5TransportBuilder
                .builder(new HttpHost(location.https() ? "https" : "http", location.host(), location.port()))
                .setMapper(new JacksonJsonpMapper(JSON));
        location.authorization().ifPresent(a -> b.setDefaultHeaders(new Header[] {new BasicHeader("Authorization", a)}));
        this.transport = b.build();
        this.client = new OpenSearchClient(transport).generic();
    }

    OpenSearchLocation location() {
        return location;
    }

    Reply get(String endpoint) {
        return send("GET", endpoint, null, null);
    }

    Reply json(String method, String endpoint, Object body) {
        try {
            return send(method, endpoint, body == null ? null : JSON.writeValueAsBytes(body), "application/json");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    Reply ndjson(String endpoint, byte[] lines) {
        return send("POST", endpoint, lines, "application/x-ndjson");
    }

    private Reply send(String method, String endpoint, byte[] body, String contentType) {
        var request = Requests.builder().method(method).endpoint(endpoint);
        if (body != null) {
            request.body(Body.from(body, contentType));
        }
        try (var response = client.execute(request.build())) {
            JsonNode parsed = JSON.createObjectNode();
            var content = response.getBody();
            if (content.isPresent()) {
                byte[] bytes = content.get().bodyAsBytes();
                if (bytes.length > 0) {
                    try {
                        parsed = JSON.readTree(bytes);
                    } catch (IOException e) { // not JSON: a proxy's page, say
                        parsed = JSON.createObjectNode().put("error", new String(bytes, 0, Math.min(bytes.length, 200),
                                StandardCharsets.UTF_8).replaceAll("\\s+", " ").strip());
                    }
                }
            }
            if (response.getStatus() == 401 || response.getStatus() == 403) {
                throw new OpenSearchException("OpenSearch at " + location.baseUrl() + " refused the credentials (HTTP "
                        + response.getStatus() + "): set " + OpenSearchLocation.USER + "/" + OpenSearchLocation.PASSWORD
                        + " or " + OpenSearchLocation.API_KEY);
            }
            return new Reply(response.getStatus(), parsed);
        } catch (IOException e) {
            throw unreachable(e);
        }
    }

    private OpenSearchException unreachable(IOException e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof ConnectException) && !(cause instanceof UnknownHostException)) {
            cause = cause.getCause();
        }
        String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new OpenSearchException("cannot reach OpenSearch at " + location.baseUrl() + " (" + why
                + "): start the cluster or fix the URL in --index", e);
    }

    /**
     * Checks the cluster answers and is not red (yellow is fine: a single node cannot place replicas), before any work.
     */
    void requireHealthy() {
        Reply health = get("/_cluster/health");
        if (!health.ok()) {
            throw new OpenSearchException("OpenSearch at " + location.baseUrl() + " answered the health check with "
                    + health.reason() + ": is it an OpenSearch cluster?");
        }
        if ("red".equals(health.body().path("status").asText())) {
            throw new OpenSearchException("OpenSearch cluster " + health.body().path("cluster_name").asText() + " at "
                    + location.baseUrl() + " is red (" + health.body().path("unassigned_shards").asInt()
                    + " unassigned shards): fix the cluster before indexing or searching");
        }
    }

    @Override
    public void close() {
        try {
            transport.close();
        } catch (Exception e) {
            // closing a connection pool: nothing left to do
        }
    }
}
