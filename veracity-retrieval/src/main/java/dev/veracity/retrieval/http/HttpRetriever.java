package dev.veracity.retrieval.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A retriever behind HTTP that speaks the Search-R1 / VeRL retrieval protocol (see {@link RetrievalServer}): ours,
 * Search-R1's {@code retrieval_server.py}, or the user's own. Titles and texts are recovered from
 * {@code contents} ({@code "title"\ntext}). Thread-safe.
 */
public final class HttpRetriever implements Retriever {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final HttpClient client;
    private final Duration timeout;

    public HttpRetriever(URI url, Duration timeout) {
        this.url = url;
        this.timeout = timeout;
        this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** {@code url} is the full endpoint, e.g. {@code http://127.0.0.1:8000/retrieve}. */
    public HttpRetriever(String url) {
        this(URI.create(url), Duration.ofSeconds(60));
    }

    @Override
    public List<Passage> search(String query, int k) {
        return searchAll(List.of(query), k).getFirst();
    }

    /** One request for many queries: one result list per query, in order. */
    public List<List<Passage>> searchAll(List<String> queries, int k) {
        ObjectNode body = JSON.createObjectNode();
        queries.forEach(body.putArray("queries")::add);
        body.put("topk", k).put("return_scores", true);
        HttpResponse<String> resp;
        try {
            resp = client.send(HttpRequest.newBuilder(url).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("Retrieval server " + url + " unreachable (" + e.getMessage()
                    + "): is it running? Start one with ./veracity serve-retrieval --index DIR --port P", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling " + url, e);
        }
        if (resp.statusCode() != 200) {
            throw new IllegalStateException("Retrieval server " + url + " answered HTTP " + resp.statusCode() + ": " + resp.body());
        }
        try {
            JsonNode result = JSON.readTree(resp.body()).path("result");
            if (!result.isArray() || result.size() != queries.size()) {
                throw new IllegalStateException("Retrieval server " + url + " sent no \"result\" list per query: " + abbreviate(resp.body()));
            }
            List<List<Passage>> out = new ArrayList<>();
            for (JsonNode hits : result) {
                List<Passage> ps = new ArrayList<>();
                for (JsonNode hit : hits) {
                    JsonNode doc = hit.has("document") ? hit.get("document") : hit;
                    ps.add(Passage.fromContents(doc.path("id").asText(""), doc.path("contents").asText(""),
                            hit.path("score").asDouble(0)));
                }
                out.add(ps);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("Retrieval server " + url + " sent invalid JSON: " + abbreviate(resp.body()), e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
