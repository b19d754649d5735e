package dev.veracity.retrieval.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.SearchIndex;
import dev.veracity.retrieval.corpus.CorpusFormat;
import dev.veracity.retrieval.corpus.CorpusReader;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.IndexBuilder;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.retrieval.lucene.PassageVectors;
import dev.veracity.opensearch.node.OpenSearchTestNode;
import dev.veracity.retrieval.react.PageReader;
import dev.veracity.retrieval.react.PageStore;
import dev.veracity.testing.Shared;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenSearch as a retrieval back end against a real node ({@link OpenSearchTestNode}: OpenSearch 2.19.1 and its
 * k-NN plugin in a child JVM, started once for the class), beside our Lucene index on the same corpus: the documents
 * of the first {@value #QUESTIONS} RAMDocs test questions, queried with those questions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenSearchIndexTest {

    static final int QUESTIONS = 60;
    static final int DIMENSION = 16;
    static final ObjectMapper JSON = new ObjectMapper();

    OpenSearchTestNode node;
    final HttpClient http = HttpClient.newHttpClient();
    List<Document> corpus;
    List<String> queries;
    final HashEmbedder embedder = new HashEmbedder(DIMENSION);

    /** The documents of the first {@value #QUESTIONS} RAMDocs test questions, in file order. */
    static List<Document> corpus() throws Exception {
        List<Document> docs = new ArrayList<>();
        CorpusReader.read(Shared.data("ramdocs/RAMDocs_test.jsonl"), CorpusFormat.DATASET, d -> {
            if (Integer.parseInt(d.id().substring(0, d.id().indexOf('-'))) < QUESTIONS) {
                docs.add(d);
            }
        });
        return docs;
    }

    @BeforeAll
    void start() throws Exception {
        corpus = corpus();
        queries = new ArrayList<>();
        for (String line : Files.readAllLines(Shared.data("ramdocs/RAMDocs_test.jsonl")).subList(0, QUESTIONS)) {
            queries.add(JSON.readTree(line).path("question").asText());
        }
        // one write thread and a one-request queue: concurrent bulks get 429, for the back-pressure test
        node = OpenSearchTestNode.start(List.of("thread_pool.write.size=1", "thread_pool.write.queue_size=1"));
        System.out.println("OpenSearch test node started in " + node.startMillis() + " ms (pid " + node.pid() + ")");
    }

    @AfterAll
    void stop() throws Exception {
        if (node != null) {
            long pid = node.pid();
            node.close();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("node process ended").isFalse();
        }
    }

    private long load(String name, PassageVectors vectors, int batch, int shards) {
        try (OpenSearchIndexer load = OpenSearchIndexer.open(OpenSearchLocation.parse(node.url(name)), vectors, batch,
                shards, null)) {
            load.addAll(corpus);
            return load.finish();
        }
    }

    private LuceneIndex lucene(Path dir, PassageVectors vectors) throws Exception {
        try (IndexBuilder b = IndexBuilder.builder().vectors(vectors).open(dir)) {
            b.addAll(corpus);
        }
        return LuceneIndex.open(dir);
    }

    private static List<String> ids(List<Passage> hits) {
        return hits.stream().map(Passage::id).toList();
    }

    @Test
    void bm25TopTenAgreesWithOurLuceneIndex(@TempDir Path dir) throws Exception {
        assertThat(load("bm25", null, 100, 1)).isEqualTo(corpus.size());
        // three shards: dfs_query_then_fetch scores with the whole index's statistics
        assertThat(load("bm25-3", null, 100, 3)).isEqualTo(corpus.size());
        try (LuceneIndex ours = lucene(dir, null);
             SearchIndex theirs = SearchIndex.open(node.url("bm25"));
             SearchIndex sharded = SearchIndex.open(node.url("bm25-3"))) {
            assertThat(theirs.metadata().corpusSha256()).isEqualTo(ours.metadata().corpusSha256());
            assertThat(theirs.metadata().passages()).isEqualTo(corpus.size());
            for (SearchIndex index : List.of(theirs, sharded)) {
                int overlap = 0;
                int sameOrder = 0;
                for (String q : queries) {
                    List<Passage> a = ours.bm25().search(q, 10);
                    List<Passage> b = index.retriever("bm25", null).search(q, 10);
                    Set<String> common = new HashSet<>(ids(a));
                    common.retainAll(ids(b));
                    overlap += common.size();
                    sameOrder += ids(a).equals(ids(b)) ? 1 : 0;
                    // OpenSearch 2.x scores with LegacyBM25Similarity: Lucene's BM25 times (k1 + 1)
                    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                        assertThat(b.get(i).score()).as(q + " rank " + (i + 1)).isCloseTo(a.get(i).score() * 1.9,
                                org.assertj.core.data.Offset.offset(1e-3 * a.get(i).score()));
                    }
                }
                System.out.printf("BM25 top 10, Lucene vs OpenSearch (%s): %d of %d shared, %d of %d queries in the"
                        + " same order%n", index.location(), overlap, 10 * queries.size(), sameOrder, queries.size());
                assertThat(overlap).isGreaterThanOrEqualTo(10 * queries.size() * 98 / 100);
            }
        }
    }

    @Test
    void knnReturnsTheNearestVectorsAndHybridFusesAsLuceneDoes(@TempDir Path dir) throws Exception {
        PassageVectors vectors = PassageVectors.embedded(embedder);
        load("dense", vectors, 100, 1);
        try (LuceneIndex ours = lucene(dir, vectors);
             OpenSearchIndex theirs = (OpenSearchIndex) SearchIndex.open(node.url("dense"))) {
            assertThat(theirs.metadata().embeddingModel()).isEqualTo(embedder.name());
            List<float[]> passageVectors = vectors.vectors(0, corpus);
            double recall = 0;
            for (String q : queries) {
                float[] query = embedder.embedQuery(q);
                List<String> oracle = IntStream.range(0, corpus.size()).boxed()
                        .sorted(Comparator.comparingDouble(i -> -dot(query, passageVectors.get(i))))
                        .limit(10).map(i -> corpus.get(i).id()).toList();
                List<String> knn = ids(theirs.dense(embedder).search(q, 10));
                assertThat(knn.getFirst()).as("the nearest passage for " + q).isEqualTo(oracle.getFirst());
                recall += knn.stream().filter(oracle::contains).count() / 10.0;
            }
            recall /= queries.size();
            System.out.printf("k-NN recall@10 against brute force: %.3f%n", recall);
            assertThat(recall).isGreaterThanOrEqualTo(0.95);
            int sameHybrid = 0;
            for (String q : queries) {
                List<String> a = ids(ours.hybrid(embedder).search(q, 10));
                List<String> b = ids(theirs.hybrid(embedder).search(q, 10));
                sameHybrid += new HashSet<>(a).equals(new HashSet<>(b)) ? 1 : 0;
            }
            // the fusion itself is Lucene's (OpenSearchFusionTest); what differs is the dense lists 100 deep, each from
            // its own HNSW graph (approximate), so only most queries agree: 52 to 58 of 60 in our runs
            System.out.printf("hybrid top 10, Lucene vs OpenSearch: the same set for %d of %d queries%n", sameHybrid,
                    queries.size());
            assertThat(sameHybrid).isGreaterThanOrEqualTo(queries.size() * 3 / 4);
            for (String q : queries.subList(0, 10)) { // on the node: the fusion of the node's own two lists
                assertThat(theirs.hybrid(embedder).search(q, 10)).isEqualTo(OpenSearchIndex.fuse(List.of(
                        theirs.searchBm25(q, 100), theirs.searchVector(embedder.embedQuery(q), 100)), 10));
            }
        }
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    @Test
    void aKilledLoadResumesWithoutSendingAgain() throws Exception {
        String url = node.url("killed");
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), KilledOpenSearchLoadMain.class.getName(), url, "10")
                .redirectErrorStream(true).start();
        long reached = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("PROGRESS ")) {
                    reached = Long.parseLong(line.substring(9));
                    if (reached >= corpus.size() / 3) {
                        child.destroyForcibly(); // SIGKILL, wherever it is
                        break;
                    }
                }
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(reached).as("the load was killed mid-way").isBetween(1L, (long) corpus.size() - 1);
        assertThatThrownBy(() -> SearchIndex.open(url)).isInstanceOf(OpenSearchException.class)
                .hasMessageContaining("unfinished").hasMessageContaining("resume");
        http("POST", "/killed/_refresh", null);
        long before = http("GET", "/killed/_count", null).path("count").asLong();
        assertThat(before).isGreaterThanOrEqualTo(reached);

        // another corpus is refused, before anything is sent: a passage changed at a place already loaded, or other ids
        List<Document> changed = new ArrayList<>(corpus);
        changed.set(1, new Document(corpus.get(1).id(), corpus.get(1).title(), corpus.get(1).text() + " Changed."));
        List<Document> other = corpus.stream().map(d -> new Document("other-" + d.id(), d.title(), d.text())).toList();
        for (List<Document> wrong : List.of(changed, other)) {
            try (OpenSearchIndexer notIt = OpenSearchIndexer.open(OpenSearchLocation.parse(url), null, 10, 1, null)) {
                assertThatThrownBy(() -> {
                    notIt.addAll(wrong);
                    notIt.finish();
                }).isInstanceOf(OpenSearchException.class).hasMessageContaining("the corpus is not the one")
                        .hasMessageContaining("delete the index").hasMessageNotContaining("\n");
            }
        }
        http("POST", "/killed/_refresh", null);
        assertThat(http("GET", "/killed/_count", null).path("count").asLong()).isEqualTo(before);

        try (OpenSearchIndexer again = OpenSearchIndexer.open(OpenSearchLocation.parse(url), null, 10, 1, null)) {
            again.addAll(corpus);
            assertThat(again.finish()).isEqualTo(corpus.size());
            assertThat(again.skipped()).isEqualTo(before);
            assertThat(again.sent()).isEqualTo(corpus.size() - before);
        }
        // on the node: every passage once, none written twice (a resent passage would be at version 2)
        JsonNode hits = http("POST", "/killed/_search", JSON.createObjectNode().put("size", 1000).put("version", true)
                .put("_source", false)).path("hits").path("hits");
        assertThat(hits.size()).isEqualTo(corpus.size());
        for (JsonNode hit : hits) {
            assertThat(hit.path("_version").asInt()).as(hit.path("_id").asText()).isEqualTo(1);
        }
        try (SearchIndex resumed = SearchIndex.open(url)) {
            assertThat(resumed.metadata().passages()).isEqualTo(corpus.size());
            assertThat(resumed.retriever("bm25", null).search(queries.getFirst(), 3)).hasSize(3);
        }
    }

    @Test
    void a429IsWaitedOutAndTheRejectedPassagesResent() throws Exception {
        http("PUT", "/noise", JSON.readTree("{\"settings\":{\"index\":{\"number_of_replicas\":0}}}"));
        StringBuilder noise = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            noise.append("{\"index\":{}}\n{\"text\":\"noise ").append(i).append("\"}\n");
        }
        AtomicReference<OpenSearchIndexer> watched = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> flooders = new ArrayList<>();
        for (int t = 0; t < 3; t++) { // keep the one write thread busy and its queue full until we are refused
            flooders.add(Thread.ofVirtual().start(() -> {
                while (!stop.get() && (watched.get() == null || watched.get().retries() == 0)) {
                    try {
                        http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + "/noise/_bulk"))
                                .header("Content-Type", "application/x-ndjson")
                                .POST(HttpRequest.BodyPublishers.ofString(noise.toString())).build(),
                                HttpResponse.BodyHandlers.discarding());
                    } catch (Exception e) {
                        return;
                    }
                }
            }));
        }
        long count;
        long retries;
        try (OpenSearchIndexer load = OpenSearchIndexer.open(OpenSearchLocation.parse(node.url("pressure")), null, 10, 1,
                null)) {
            watched.set(load);
            load.addAll(corpus);
            count = load.finish();
            retries = load.retries();
        } finally {
            stop.set(true);
            for (Thread t : flooders) {
                t.join();
            }
        }
        System.out.println("bulk loading under a full write queue: " + retries + " retries after 429");
        assertThat(retries).as("OpenSearch refused some bulk with 429").isPositive();
        assertThat(count).isEqualTo(corpus.size());
        JsonNode hits = http("POST", "/pressure/_search", JSON.createObjectNode().put("size", 1000).put("version", true)
                .put("_source", false)).path("hits").path("hits");
        assertThat(hits.size()).isEqualTo(corpus.size());
        for (JsonNode hit : hits) {
            assertThat(hit.path("_version").asInt()).as(hit.path("_id").asText()).isEqualTo(1);
        }
    }

    @Test
    void pageStoreFindsWhatTheLuceneStoreFinds() {
        List<Document> paragraphs = new ArrayList<>();
        var english = dev.veracity.retrieval.bench.SyntheticCorpus.english(7, 40);
        for (int i = 0; i < 300; i++) {
            Document d = english.passage(i);
            // three paragraphs a page: titles repeat, as a dataset's paragraphs do
            paragraphs.add(new Document(d.id(), "Page " + english.passage(i / 3).title(), d.text() + "."));
        }
        List<PageSource.Page> pages = PageReader.group(paragraphs);
        OpenSearchLocation location = OpenSearchLocation.parse(node.url("pages"));
        try (OpenSearchPageStore.Loader load = OpenSearchPageStore.Loader.create(location, "documents", "test", 25, 1,
                null)) {
            pages.forEach(load::add);
            assertThat(load.finish()).isEqualTo(pages.size());
        }
        try (PageStore ours = PageStore.of(paragraphs);
             OpenSearchPageStore theirs = OpenSearchPageStore.open(location)) {
            assertThat(theirs.size()).isEqualTo(ours.size());
            int sameSimilar = 0;
            for (PageSource.Page page : pages.subList(0, 60)) {
                assertThat(theirs.page(page.title().toUpperCase(java.util.Locale.ROOT).replace(' ', '_')))
                        .isEqualTo(ours.page(page.title())).isPresent();
                String words = page.title().substring(5) + " " + page.sentences().getFirst().split(" ")[2];
                sameSimilar += theirs.similarTitles(words, 5).equals(ours.similarTitles(words, 5)) ? 1 : 0;
            }
            assertThat(theirs.page("No Such Page")).isEmpty();
            assertThat(theirs.similarTitles("the of", 5)).isEmpty();
            System.out.printf("page store: Similar: lists equal to the Lucene store's for %d of 60 names%n", sameSimilar);
            assertThat(sameSimilar).isEqualTo(60);
        }
        // loading again replaces the store, as a folder's is replaced; an index of passages is not a page store
        try (OpenSearchPageStore.Loader again = OpenSearchPageStore.Loader.create(location, "documents", "test", 25, 1,
                null)) {
            pages.subList(0, 10).forEach(again::add);
            assertThat(again.finish()).isEqualTo(10);
        }
        OpenSearchIndexer.open(OpenSearchLocation.parse(node.url("passages")), null, 10, 1, null).close();
        assertThatThrownBy(() -> OpenSearchPageStore.open(OpenSearchLocation.parse(node.url("passages"))))
                .isInstanceOf(OpenSearchException.class).hasMessageContaining("is not a page store");
    }

    @Test
    void errorsAreOneLineBeforeAnyWork() throws Exception {
        String nowhere = "opensearch://127.0.0.1:" + OpenSearchTestNode.freePort() + "/x";
        assertThatThrownBy(() -> SearchIndex.open(nowhere)).isInstanceOf(OpenSearchException.class)
                .hasMessageStartingWith("cannot reach OpenSearch at http://127.0.0.1:").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> SearchIndex.open(node.url("absent"))).isInstanceOf(OpenSearchException.class)
                .hasMessageContaining("no index absent").hasMessageContaining("./veracity index");

        // an index scored otherwise (OpenSearch's default BM25, k1 = 1.2, b = 0.75)
        http("PUT", "/plain", JSON.readTree("{\"mappings\":{\"_meta\":{\"veracity\":{\"complete\":false}},"
                + "\"properties\":{\"contents\":{\"type\":\"text\"}}}}"));
        assertThatThrownBy(() -> OpenSearchIndexer.open(OpenSearchLocation.parse(node.url("plain")), null, 10, 1, null))
                .isInstanceOf(OpenSearchException.class).hasMessageContaining("does not score contents by BM25 k1=0.9 b=0.4");
        // an unfinished dense index of another dimension
        try (OpenSearchIndexer d16 = OpenSearchIndexer.open(OpenSearchLocation.parse(node.url("dims")),
                PassageVectors.embedded(embedder), 10, 1, null)) {
            d16.add(corpus.getFirst());
        }
        assertThatThrownBy(() -> OpenSearchIndexer.open(OpenSearchLocation.parse(node.url("dims")),
                PassageVectors.embedded(new HashEmbedder(8)), 10, 1, null))
                .isInstanceOf(OpenSearchException.class).hasMessageContaining("has 16-dimension vectors, not 8");

        // a red cluster: an index whose primary cannot be placed
        http("PUT", "/unplaceable", JSON.readTree("{\"settings\":{\"index\":{\"number_of_replicas\":0,"
                + "\"routing.allocation.require._name\":\"no-such-node\"}}}"));
        try {
            assertThatThrownBy(() -> SearchIndex.open(node.url("bm25"))).isInstanceOf(OpenSearchException.class)
                    .hasMessageContaining("is red").hasMessageContaining("fix the cluster");
        } finally {
            http("DELETE", "/unplaceable", null);
        }
    }

    private JsonNode http(String method, String path, JsonNode body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        HttpResponse<String> response = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }
}
