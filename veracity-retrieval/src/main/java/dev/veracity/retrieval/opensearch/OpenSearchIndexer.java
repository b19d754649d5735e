package dev.veracity.retrieval.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.IndexFields;
import dev.veracity.retrieval.lucene.PassageVectors;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Loads a corpus into an OpenSearch index through the bulk API, resumably.
 *
 * <p>Resume: every passage's {@code _id} is its corpus id. Loading into an unfinished index, before a batch is sent
 * (or embedded) a realtime {@code _mget} asks which of its ids the index already holds; only the others are sent.
 * Batches go one at a time in corpus order, so once a batch finds none of its ids, none of the later ones can be there
 * and the checks stop (a new index is never checked). A load killed at any point, even inside a bulk request, is
 * finished by running it again on the same corpus: nothing is sent twice, and the node's {@code _version} of every
 * passage stays 1. Only {@link #finish} marks the index complete
 * ({@code _meta.veracity.complete}); searching an unfinished index is refused.
 *
 * <p>Back-pressure: {@link BulkWriter} waits out 429s and resends only the rejected passages (bounded). One thread
 * calls {@link #add}; batches are sent one at a time (a request in flight is the back-pressure).
 */
public final class OpenSearchIndexer implements AutoCloseable {

    public static final int DEFAULT_BATCH = 500;

    private final OpenSearchCluster cluster;
    private final BulkWriter writer;
    private final String index;
    private final PassageVectors vectors;
    private final int batchSize;
    private LongConsumer progress;
    private final MessageDigest digest;
    private final List<Document> batch = new ArrayList<>();
    private long seen;
    private long sent;
    private long skipped;
    private boolean finished;
    /** Resuming an unfinished index, up to the first batch none of whose passages it holds. */
    private boolean checking;

    private OpenSearchIndexer(OpenSearchCluster cluster, PassageVectors vectors, int batchSize, LongConsumer progress,
                              boolean resuming) {
        this.cluster = cluster;
        this.writer = new BulkWriter(cluster);
        this.checking = resuming;
        this.index = cluster.location().index();
        this.vectors = vectors;
        this.batchSize = batchSize;
        this.progress = progress == null ? n -> { } : progress;
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Connects, checks the cluster is not red, and creates the index, or takes up an unfinished one whose mapping
     * matches (same BM25 parameters, same vector dimension and model). {@code vectors} null for BM25 only.
     */
    public static OpenSearchIndexer open(OpenSearchLocation location, PassageVectors vectors, int batchSize, int shards,
                                         LongConsumer progress) {
        if (batchSize < 1 || shards < 1) {
            throw new IllegalArgumentException("the batch size and the number of shards must be >= 1");
        }
        OpenSearchCluster cluster = new OpenSearchCluster(location);
        try {
            cluster.requireHealthy();
            String model = vectors == null ? null : vectors.model();
            int dimension = vectors == null ? 0 : vectors.dimension();
            OpenSearchCluster.Reply exists = cluster.get("/" + location.index() + "/_mapping");
            if (exists.status() == 404) {
                OpenSearchCluster.Reply created = cluster.json("PUT", "/" + location.index(),
                        OpenSearchSchema.create(model, dimension, shards));
                if (!created.ok()) {
                    throw new OpenSearchException("OpenSearch refused to create index " + location + ": " + created.reason()
                            + (dimension > 0 ? " (k-NN needs the opensearch-knn plugin)" : ""));
                }
            } else if (exists.ok()) {
                JsonNode mapping = exists.body().path(location.index()).path("mappings");
                JsonNode settings = cluster.get("/" + location.index() + "/_settings").body().path(location.index())
                        .path("settings");
                String why = OpenSearchSchema.mismatch(settings, mapping, model, dimension);
                if (why != null) {
                    throw new OpenSearchException("index " + location + " " + why
                            + ": delete it or index into another name");
                }
                if (OpenSearchSchema.metadata(mapping) != null) {
                    throw new OpenSearchException("index " + location + " is already built: search it, or delete it"
                            + " to build it again");
                }
            } else {
                throw new OpenSearchException("OpenSearch at " + location.baseUrl() + " could not look up index "
                        + location.index() + ": " + exists.reason());
            }
            return new OpenSearchIndexer(cluster, vectors, batchSize, progress, exists.ok());
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Where progress goes from now on (passages read); a bar started after {@link #open}'s checks, say. */
    public OpenSearchIndexer progress(LongConsumer progress) {
        this.progress = progress == null ? n -> { } : progress;
        return this;
    }

    /** Adds one passage (sent with its batch). */
    public void add(Document d) {
        if (finished) {
            throw new IllegalStateException("the load is finished");
        }
        digest.update(IndexFields.checksumLine(d));
        seen++;
        batch.add(d);
        if (batch.size() >= batchSize) {
            flush();
        }
    }

    public void addAll(Iterable<Document> docs) {
        for (Document d : docs) {
            add(d);
        }
    }

    /** Passages sent to the node by this load. */
    public long sent() {
        return sent;
    }

    /** Passages found already indexed (by an earlier, interrupted load) and not sent again. */
    public long skipped() {
        return skipped;
    }

    /** Bulk requests (or items) resent after a 429. */
    public long retries() {
        return writer.retries();
    }

    /**
     * Sends the last batch, refreshes, and marks the index complete with its metadata; returns the number of
     * passages the index holds (fewer than read when the corpus repeats ids).
     */
    public long finish() {
        flush();
        OpenSearchCluster.Reply refreshed = cluster.json("POST", "/" + index + "/_refresh", null);
        if (!refreshed.ok()) {
            throw new OpenSearchException("refreshing " + cluster.location() + " failed: " + refreshed.reason());
        }
        long count = cluster.get("/" + index + "/_count").body().path("count").asLong(-1);
        ObjectNode meta = OpenSearchCluster.JSON.createObjectNode();
        ObjectNode veracity = meta.putObject("_meta").putObject(OpenSearchSchema.META);
        veracity.put("k1", dev.veracity.retrieval.lucene.Bm25Retriever.K1).put("b", dev.veracity.retrieval.lucene.Bm25Retriever.B)
                .put("embeddingModel", vectors == null ? null : vectors.model())
                .put("dimension", vectors == null ? 0 : vectors.dimension()).put("passages", count)
                .put("corpusSha256", HexFormat.of().formatHex(digest.digest())).put("complete", true);
        OpenSearchCluster.Reply put = cluster.json("PUT", "/" + index + "/_mapping", meta);
        if (!put.ok()) {
            throw new OpenSearchException("writing the metadata of " + cluster.location() + " failed: " + put.reason());
        }
        if (vectors != null) {
            vectors.finish(seen);
        }
        finished = true;
        progress.accept(seen);
        return count;
    }

    private void flush() {
        if (batch.isEmpty()) {
            return;
        }
        long first = seen - batch.size();
        Set<String> present = checking ? present(batch, first) : Set.of();
        if (checking && present.isEmpty() && first == 0 && holdsPassages()) {
            // the earlier load sent its first batch first: holding passages but none of these, it loaded another corpus
            throw notTheCorpus("its first passages are not " + batch.getFirst().id() + ", ...");
        }
        checking = checking && !present.isEmpty();
        List<Document> missing = new ArrayList<>();
        List<Long> missingPositions = new ArrayList<>();
        List<float[]> missingVectors = new ArrayList<>();
        if (present.size() < batch.size()) {
            List<float[]> all = vectors == null ? null : vectors.vectors(first, List.copyOf(batch));
            for (int i = 0; i < batch.size(); i++) {
                if (!present.contains(batch.get(i).id())) {
                    missing.add(batch.get(i));
                    missingPositions.add(first + i);
                    missingVectors.add(all == null ? null : all.get(i));
                }
            }
            List<String> ids = new ArrayList<>(missing.size());
            List<ObjectNode> sources = new ArrayList<>(missing.size());
            for (int i = 0; i < missing.size(); i++) {
                ids.add(missing.get(i).id());
                sources.add(OpenSearchSchema.source(missing.get(i), missingPositions.get(i), missingVectors.get(i)));
            }
            writer.write(ids, sources, "passage");
        }
        skipped += batch.size() - missing.size();
        sent += missing.size();
        batch.clear();
        progress.accept(seen);
    }

    /**
     * The ids of the batch the index already holds (realtime: no refresh needed), each checked to be this passage at
     * this place of the corpus: a resumed load never keeps what another corpus left (the folder index's resume checks
     * its prefix the same way).
     */
    private Set<String> present(List<Document> docs, long first) {
        ObjectNode body = OpenSearchCluster.JSON.createObjectNode();
        var ids = body.putArray("ids");
        docs.forEach(d -> ids.add(d.id()));
        OpenSearchCluster.Reply reply = cluster.json("POST", "/" + index + "/_mget?_source_includes="
                + OpenSearchSchema.POSITION + "," + IndexFields.TITLE + "," + IndexFields.RAW, body);
        if (!reply.ok()) {
            throw new OpenSearchException("checking which passages " + cluster.location() + " holds failed: "
                    + reply.reason());
        }
        java.util.Map<String, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            at.putIfAbsent(docs.get(i).id(), i);
        }
        Set<String> found = new HashSet<>();
        for (JsonNode doc : reply.body().path("docs")) {
            if (!doc.path("found").asBoolean(false)) {
                continue;
            }
            String id = doc.path("_id").asText();
            Integer i = at.get(id);
            JsonNode source = doc.path("_source");
            if (i == null || source.path(OpenSearchSchema.POSITION).asLong(-1) != first + i
                    || !source.path(IndexFields.TITLE).asText("").equals(docs.get(i).title())
                    || !source.path(IndexFields.RAW).asText("").equals(docs.get(i).text())) {
                throw notTheCorpus("passage " + id + " differs from the one loaded before");
            }
            found.add(id);
        }
        return found;
    }

    /** Whether the index holds any passage yet (a refresh first: the count is not realtime). */
    private boolean holdsPassages() {
        cluster.json("POST", "/" + index + "/_refresh", null);
        return cluster.get("/" + index + "/_count").body().path("count").asLong(0) > 0;
    }

    private OpenSearchException notTheCorpus(String why) {
        return new OpenSearchException("the corpus is not the one " + cluster.location() + " was being built from ("
                + why + "): delete the index to start again, or load into another");
    }

    /** Closes the connection; an unfinished load stays resumable. */
    @Override
    public void close() {
        cluster.close();
    }
}
