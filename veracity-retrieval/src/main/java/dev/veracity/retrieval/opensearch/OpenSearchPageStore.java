package dev.veracity.retrieval.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.lucene.AnseriniAnalyzer;
import dev.veracity.retrieval.lucene.Bm25Retriever;
import dev.veracity.retrieval.react.PageStore;
import dev.veracity.retrieval.react.PageStoreMetadata;
import dev.veracity.retrieval.react.WikiEnvironment;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * The ReAct page store ({@link PageStore}) in an OpenSearch index: one document per page, {@code _id} its normalised
 * title ({@link PageStore#normalise}), so an exact lookup is a {@code term} query on {@code key} and a title added twice
 * replaces the first, as in the Lucene store; "Similar:" titles are the same BM25 query as {@link PageStore}'s (k1 0.9,
 * b 0.4, Anserini's bag of words over {@code title}, boosted {@value PageStore#TITLE_BOOST}, and over {@code lead}, the
 * sentences Search shows). {@link Loader} writes it; only a finished load ({@code _meta.veracity_pages.complete}) opens.
 */
public final class OpenSearchPageStore implements PageSource {

    static final String META = "veracity_pages";
    static final String KEY = "key";
    static final String TITLE = "title";
    static final String LEAD = "lead";
    static final String PARAGRAPH = "paragraph";
    static final String SENTENCE = "sentence";

    private final OpenSearchCluster cluster;
    private final PageStoreMetadata metadata;
    private final AnseriniAnalyzer analyzer = new AnseriniAnalyzer();

    private OpenSearchPageStore(OpenSearchCluster cluster, PageStoreMetadata metadata) {
        this.cluster = cluster;
        this.metadata = metadata;
    }

    /** Opens a finished page store: the cluster answers and is not red, the index is a page store and complete. */
    public static OpenSearchPageStore open(OpenSearchLocation location) {
        OpenSearchCluster cluster = new OpenSearchCluster(location);
        try {
            cluster.requireHealthy();
            OpenSearchCluster.Reply mapping = cluster.get("/" + location.index() + "/_mapping");
            String build = "build it with ./veracity index --pages --corpus FILE --format FORMAT --out " + location;
            if (mapping.status() == 404) {
                throw new OpenSearchException("no page store " + location.index() + " at " + location.baseUrl() + ": " + build);
            }
            if (!mapping.ok()) {
                throw new OpenSearchException("OpenSearch at " + location.baseUrl() + " could not read index "
                        + location.index() + ": " + mapping.reason());
            }
            JsonNode meta = mapping.body().path(location.index()).path("mappings").path("_meta").path(META);
            if (meta.isMissingNode()) {
                throw new OpenSearchException("index " + location + " is not a page store (no _meta." + META + "): " + build);
            }
            if (!meta.path("complete").asBoolean(false)) {
                throw new OpenSearchException("page store " + location + " is unfinished (its load stopped): " + build);
            }
            return new OpenSearchPageStore(cluster, new PageStoreMetadata(meta.path("pages").asLong(),
                    meta.path("format").asText(), meta.path("source").asText(), meta.path("pagesSha256").asText()));
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public PageStoreMetadata metadata() {
        return metadata;
    }

    @Override
    public Optional<Page> page(String title) {
        String key = PageStore.normalise(title);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode body = OpenSearchCluster.JSON.createObjectNode().put("size", 1);
        body.putObject("query").putObject("term").put(KEY, key);
        JsonNode hits = search(body, "page lookup");
        if (hits.isEmpty()) {
            return Optional.empty();
        }
        JsonNode src = hits.get(0).path("_source");
        return Optional.of(new Page(src.path(TITLE).asText(), strings(src.path(PARAGRAPH)), strings(src.path(SENTENCE))));
    }

    @Override
    public List<String> similarTitles(String query, int n) {
        Map<String, Integer> title = Bm25Retriever.termCounts(analyzer, TITLE, query);
        Map<String, Integer> lead = Bm25Retriever.termCounts(analyzer, LEAD, query);
        if (title.isEmpty() || n <= 0) {
            return List.of(); // no word survives analysis (empty, only stop words)
        }
        ObjectNode body = OpenSearchCluster.JSON.createObjectNode().put("size", n).put("track_total_hits", false);
        body.putArray("_source").add(TITLE);
        ArrayNode should = body.putObject("query").putObject("bool").putArray("should");
        bag(should.addObject().putObject("bool").put("boost", PageStore.TITLE_BOOST), TITLE, title);
        bag(should.addObject().putObject("bool"), LEAD, lead);
        List<String> out = new ArrayList<>();
        search(body, "similar-title search").forEach(hit -> out.add(hit.path("_source").path(TITLE).asText()));
        return out;
    }

    /** Anserini's bag of words as a bool of boosted {@code term} queries on one field. */
    private static void bag(ObjectNode bool, String field, Map<String, Integer> terms) {
        ArrayNode should = bool.putArray("should");
        terms.forEach((t, count) -> should.addObject().putObject("term").putObject(field).put("value", t).put("boost", count));
    }

    private JsonNode search(ObjectNode body, String what) {
        OpenSearchCluster.Reply reply = cluster.json("POST", "/" + cluster.location().index() + "/_search", body);
        if (!reply.ok()) {
            throw new OpenSearchException(what + " in " + cluster.location() + " failed: " + reply.reason());
        }
        return reply.body().path("hits").path("hits");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    @Override
    public long size() {
        return metadata.pages();
    }

    @Override
    public void close() {
        cluster.close();
    }

    /**
     * Loads pages into a new page store, replacing an earlier page store of that name (as a folder's is replaced);
     * any other index of that name is refused. Bulk requests of {@code batch} pages through {@link BulkWriter}; the
     * checksum is {@link PageStoreMetadata#pagesSha256}'s. Only {@link #finish} marks the store complete.
     */
    public static final class Loader implements AutoCloseable {

        private final OpenSearchCluster cluster;
        private final BulkWriter writer;
        private final int batch;
        private LongConsumer progress;
        private final String format;
        private final String source;
        private final MessageDigest digest;
        private final List<String> ids = new ArrayList<>();
        private final List<ObjectNode> docs = new ArrayList<>();
        private long added;

        private Loader(OpenSearchCluster cluster, int batch, String format, String source, LongConsumer progress) {
            this.cluster = cluster;
            this.writer = new BulkWriter(cluster);
            this.batch = batch;
            this.format = format;
            this.source = source;
            this.progress = progress == null ? n -> { } : progress;
            try {
                this.digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        public static Loader create(OpenSearchLocation location, String format, String source, int batch, int shards,
                                    LongConsumer progress) {
            if (batch < 1 || shards < 1) {
                throw new IllegalArgumentException("the batch size and the number of shards must be >= 1");
            }
            OpenSearchCluster cluster = new OpenSearchCluster(location);
            try {
                cluster.requireHealthy();
                OpenSearchCluster.Reply existing = cluster.get("/" + location.index() + "/_mapping");
                if (existing.ok()) {
                    if (existing.body().path(location.index()).path("mappings").path("_meta").path(META).isMissingNode()) {
                        throw new OpenSearchException("index " + location + " exists and is not a page store: delete it"
                                + " or store the pages under another name");
                    }
                    cluster.json("DELETE", "/" + location.index(), null);
                } else if (existing.status() != 404) {
                    throw new OpenSearchException("OpenSearch at " + location.baseUrl() + " could not look up index "
                            + location.index() + ": " + existing.reason());
                }
                OpenSearchCluster.Reply created = cluster.json("PUT", "/" + location.index(), schema(format, source, shards));
                if (!created.ok()) {
                    throw new OpenSearchException("OpenSearch refused to create page store " + location + ": "
                            + created.reason());
                }
                return new Loader(cluster, batch, format, source, progress);
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        }

        private static ObjectNode schema(String format, String source, int shards) {
            ObjectNode body = OpenSearchCluster.JSON.createObjectNode();
            OpenSearchSchema.indexSettings(body, shards);
            ObjectNode mappings = body.putObject("mappings");
            mappings.putObject("_meta").putObject(META).put("format", format).put("source", source).put("complete", false);
            ObjectNode props = mappings.putObject("properties");
            props.putObject(KEY).put("type", "keyword");
            for (String analysed : List.of(TITLE, LEAD)) {
                props.putObject(analysed).put("type", "text").put("analyzer", OpenSearchSchema.ANALYZER)
                        .put("similarity", OpenSearchSchema.SIMILARITY).put("index_options", "freqs");
            }
            props.putObject(PARAGRAPH).put("type", "text").put("index", false);
            props.putObject(SENTENCE).put("type", "text").put("index", false);
            return body;
        }

        /** Where progress goes from now on (pages added); a bar started after {@link #create}'s checks, say. */
        public Loader progress(LongConsumer progress) {
            this.progress = progress == null ? n -> { } : progress;
            return this;
        }

        /** Adds a page; pages without a title or without text are skipped, as {@code PageStoreBuilder} does. */
        public void add(Page page) {
            String key = PageStore.normalise(page.title());
            if (key.isEmpty() || page.sentences().isEmpty()) {
                return;
            }
            digest.update((page.title().strip() + "\n" + String.join("\t", page.sentences()) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            List<String> sentences = page.sentences();
            ObjectNode doc = OpenSearchCluster.JSON.createObjectNode().put(KEY, key).put(TITLE, page.title())
                    .put(LEAD, String.join(" ", sentences.subList(0, Math.min(WikiEnvironment.SEARCH_SENTENCES,
                            sentences.size()))));
            page.paragraphs().forEach(doc.withArray(PARAGRAPH)::add);
            sentences.forEach(doc.withArray(SENTENCE)::add);
            ids.add(key);
            docs.add(doc);
            added++;
            if (ids.size() >= batch) {
                flush();
            }
        }

        private void flush() {
            if (!ids.isEmpty()) {
                writer.write(ids, docs, "page");
                ids.clear();
                docs.clear();
                progress.accept(added);
            }
        }

        /** Pages added (a title added twice counts twice; the store holds it once). */
        public long count() {
            return added;
        }

        /** Sends the last pages, refreshes, and marks the store complete; returns the pages it holds. */
        public long finish() {
            flush();
            String index = cluster.location().index();
            cluster.json("POST", "/" + index + "/_refresh", null);
            long pages = cluster.get("/" + index + "/_count").body().path("count").asLong(-1);
            ObjectNode meta = OpenSearchCluster.JSON.createObjectNode();
            meta.putObject("_meta").putObject(META).put("format", format).put("source", source).put("pages", pages)
                    .put("pagesSha256", HexFormat.of().formatHex(digest.digest())).put("complete", true);
            OpenSearchCluster.Reply put = cluster.json("PUT", "/" + index + "/_mapping", meta);
            if (!put.ok()) {
                throw new OpenSearchException("writing the metadata of " + cluster.location() + " failed: " + put.reason());
            }
            progress.accept(added);
            return pages;
        }

        @Override
        public void close() {
            cluster.close();
        }
    }
}
