package dev.veracity.retrieval.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.SearchIndex;
import dev.veracity.retrieval.lucene.AnseriniAnalyzer;
import dev.veracity.retrieval.lucene.Bm25Retriever;
import dev.veracity.retrieval.lucene.HybridRetriever;
import dev.veracity.retrieval.lucene.IndexFields;
import dev.veracity.retrieval.lucene.IndexMetadata;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A finished index in OpenSearch ({@link OpenSearchIndexer}), searched as our Lucene index is:
 * <ul>
 * <li>BM25: the query analysed here by {@link AnseriniAnalyzer} into Anserini's bag of words, sent as {@code term}
 * queries boosted by their counts on {@code contents} (BM25 k1 = 0.9, b = 0.4 in the index's settings), with
 * {@code dfs_query_then_fetch} when the index has several shards, so they score with the whole index's statistics, as
 * one Lucene index does.</li>
 * <li>dense: the query embedded here, then a {@code knn} query on {@code vector} (HNSW, lucene engine).</li>
 * <li>hybrid: both lists fused on our side by reciprocal rank fusion (k = 60), as {@link HybridRetriever} does.</li>
 * </ul>
 * Thread-safe; holds one pooled connection, released by {@link #close}.
 */
public final class OpenSearchIndex implements SearchIndex {

    private static final List<String> STORED = List.of(IndexFields.ID, IndexFields.TITLE, IndexFields.RAW,
            OpenSearchSchema.POSITION);

    /** A hit and its place in the corpus (the tie-break of fusion). */
    record Hit(Passage passage, long position) {
    }

    private final OpenSearchCluster cluster;
    private final IndexMetadata metadata;
    private final String bm25Endpoint;
    private final AnseriniAnalyzer analyzer = new AnseriniAnalyzer();

    private OpenSearchIndex(OpenSearchCluster cluster, IndexMetadata metadata, int shards) {
        this.cluster = cluster;
        this.metadata = metadata;
        // one shard holds the whole index's statistics; several need the extra round of dfs_query_then_fetch
        this.bm25Endpoint = "/" + cluster.location().index() + "/_search"
                + (shards > 1 ? "?search_type=dfs_query_then_fetch" : "");
    }

    /**
     * Connects and checks, before any search: the cluster answers and is not red, the index exists, was built by
     * {@code ./veracity index} with our BM25 parameters, and its load finished.
     */
    public static OpenSearchIndex open(OpenSearchLocation location) {
        OpenSearchCluster cluster = new OpenSearchCluster(location);
        try {
            cluster.requireHealthy();
            OpenSearchCluster.Reply mapping = cluster.get("/" + location.index() + "/_mapping");
            if (mapping.status() == 404) {
                throw new OpenSearchException("no index " + location.index() + " at " + location.baseUrl()
                        + ": build it with ./veracity index --corpus FILE --out " + location);
            }
            if (!mapping.ok()) {
                throw new OpenSearchException("OpenSearch at " + location.baseUrl() + " could not read index "
                        + location.index() + ": " + mapping.reason());
            }
            JsonNode mappings = mapping.body().path(location.index()).path("mappings");
            JsonNode settings = cluster.get("/" + location.index() + "/_settings").body().path(location.index())
                    .path("settings");
            String why = OpenSearchSchema.mismatch(settings, mappings, null, -1);
            if (why != null) {
                throw new OpenSearchException("index " + location + " " + why + ": it cannot be searched as a Veracity"
                        + " index; build one with ./veracity index --corpus FILE --out URL");
            }
            IndexMetadata meta = OpenSearchSchema.metadata(mappings);
            if (meta == null) {
                throw new OpenSearchException("index " + location + " is unfinished (its load was interrupted): run the"
                        + " same ./veracity index command again to resume it");
            }
            return new OpenSearchIndex(cluster, meta, settings.path("index").path("number_of_shards").asInt(1));
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Whether the index exists (finished or not); the cluster must answer and not be red. */
    public static boolean exists(OpenSearchLocation location) {
        try (OpenSearchCluster cluster = new OpenSearchCluster(location)) {
            cluster.requireHealthy();
            return cluster.get("/" + location.index() + "/_mapping").status() != 404;
        }
    }

    /** Deletes the index (a benchmark's own); a missing one is fine. */
    public static void delete(OpenSearchLocation location) {
        try (OpenSearchCluster cluster = new OpenSearchCluster(location)) {
            OpenSearchCluster.Reply reply = cluster.json("DELETE", "/" + location.index(), null);
            if (!reply.ok() && reply.status() != 404) {
                throw new OpenSearchException("deleting " + location + " failed: " + reply.reason());
            }
        }
    }

    @Override
    public IndexMetadata metadata() {
        return metadata;
    }

    @Override
    public String location() {
        return cluster.location().toString();
    }

    @Override
    public Retriever bm25() {
        return (query, k) -> passages(searchBm25(query, k));
    }

    @Override
    public Retriever dense(Embedder embedder) {
        requireModel(embedder);
        return (query, k) -> passages(searchVector(embedder.embedQuery(query), k));
    }

    @Override
    public Retriever hybrid(Embedder embedder) {
        requireModel(embedder);
        return (query, k) -> {
            if (k <= 0) {
                return List.of();
            }
            int depth = Math.max(k, 100);
            return fuse(List.of(searchBm25(query, depth), searchVector(embedder.embedQuery(query), depth)), k);
        };
    }

    /** BM25 over {@code contents}, Anserini's bag-of-words query. */
    List<Hit> searchBm25(String query, int k) {
        Map<String, Integer> terms = Bm25Retriever.termCounts(analyzer, IndexFields.CONTENTS, query);
        if (terms.isEmpty() || k <= 0) {
            return List.of();
        }
        ObjectNode body = request(k);
        var should = body.putObject("query").putObject("bool").putArray("should");
        terms.forEach((term, n) -> should.addObject().putObject("term").putObject(IndexFields.CONTENTS)
                .put("value", term).put("boost", n));
        return hits(cluster.json("POST", bm25Endpoint, body), "BM25 search");
    }

    /** The k nearest passages of an embedded query by inner product (= cosine on unit vectors). */
    List<Hit> searchVector(float[] vector, int k) {
        if (!metadata.dense()) {
            throw new IllegalArgumentException("This index has no vectors: rebuild it with --dense, or search with --mode bm25");
        }
        if (k <= 0) {
            return List.of();
        }
        ObjectNode body = request(k);
        ObjectNode knn = body.putObject("query").putObject("knn").putObject(IndexFields.VECTOR);
        var array = knn.putArray("vector");
        for (float f : vector) {
            array.add(f);
        }
        knn.put("k", k);
        return hits(cluster.json("POST", "/" + cluster.location().index() + "/_search", body), "k-NN search");
    }

    private void requireModel(Embedder embedder) {
        if (!metadata.dense()) {
            throw new IllegalArgumentException("This index has no vectors: rebuild it with --dense, or search with --mode bm25");
        }
        Objects.requireNonNull(embedder, "dense search needs the embedder the index was built with");
        if (!metadata.embeddingModel().equals(embedder.name()) || metadata.dimension() != embedder.dimension()) {
            throw new IllegalArgumentException("This index was embedded with " + metadata.embeddingModel() + " ("
                    + metadata.dimension() + " dimensions), not " + embedder.name() + ": query it with the same model");
        }
    }

    private static ObjectNode request(int k) {
        ObjectNode body = OpenSearchCluster.JSON.createObjectNode();
        body.put("size", k).put("track_total_hits", false);
        var source = body.putArray("_source");
        STORED.forEach(source::add);
        return body;
    }

    private static List<Passage> passages(List<Hit> hits) {
        return hits.stream().map(Hit::passage).toList();
    }

    private List<Hit> hits(OpenSearchCluster.Reply reply, String what) {
        if (!reply.ok()) {
            throw new OpenSearchException(what + " in " + cluster.location() + " failed: " + reply.reason());
        }
        List<Hit> out = new ArrayList<>();
        for (JsonNode hit : reply.body().path("hits").path("hits")) {
            JsonNode src = hit.path("_source");
            out.add(new Hit(new Passage(src.path(IndexFields.ID).asText(hit.path("_id").asText()),
                    src.path(IndexFields.TITLE).asText(""), src.path(IndexFields.RAW).asText(""),
                    hit.path("_score").asDouble()), src.path(OpenSearchSchema.POSITION).asLong(Long.MAX_VALUE)));
        }
        return out;
    }

    /**
     * Reciprocal rank fusion as {@link HybridRetriever} computes it (Lucene's {@code TopDocs.rrf}): each list adds
     * {@code 1 / (60 + rank)}, ranks from 1; ties go to the passage earlier in the corpus, as Lucene's doc ids order them.
     */
    static List<Passage> fuse(List<List<Hit>> lists, int k) {
        Map<String, Hit> first = new LinkedHashMap<>();
        Map<String, Double> score = new LinkedHashMap<>(); // double sums as Lucene's, so ties fall the same way
        for (List<Hit> list : lists) {
            for (int rank = 1; rank <= list.size(); rank++) {
                Hit h = list.get(rank - 1);
                first.putIfAbsent(h.passage().id(), h);
                score.merge(h.passage().id(), 1.0 / (HybridRetriever.RRF_K + rank), Double::sum);
            }
        }
        return score.entrySet().stream()
                .sorted(Comparator.<Map.Entry<String, Double>>comparingDouble(Map.Entry::getValue).reversed()
                        .thenComparingLong(e -> first.get(e.getKey()).position()))
                .limit(k)
                .map(e -> {
                    Passage p = first.get(e.getKey()).passage();
                    return new Passage(p.id(), p.title(), p.text(), (float) e.getValue().doubleValue()); // as a ScoreDoc
                })
                .toList();
    }

    @Override
    public void close() {
        cluster.close();
    }
}
