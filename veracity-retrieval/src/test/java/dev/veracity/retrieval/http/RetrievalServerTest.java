package dev.veracity.retrieval.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.LuceneIndex;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import dev.veracity.http.ServerLimits;
import dev.veracity.http.ServerLog;
import dev.veracity.retrieval.Retriever;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RetrievalServerTest {

    static LuceneIndex index;
    static RetrievalServer server;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        index = LuceneIndex.inMemory(List.of(
                new Document("1", "Paris", "Paris is the capital of France."),
                new Document("2", "Berlin", "Berlin is the capital of Germany."),
                new Document("3", "Rome", "Rome has the Colosseum.")), null);
        server = RetrievalServer.start(index.bm25(), 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        index.close();
    }

    static HttpResponse<String> post(String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.url())).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersTheVerlRequest() throws Exception {
        var resp = post("{\"queries\": [\"capital of France\", \"Colosseum\"], \"topk\": 2, \"return_scores\": true}");
        assertThat(resp.statusCode()).isEqualTo(200);
        assertThat(resp.headers().firstValue("Content-Type")).contains("application/json");
        JsonNode result = JSON.readTree(resp.body()).get("result");
        assertThat(result).hasSize(2);
        assertThat(result.get(0)).hasSize(2);
        JsonNode top = result.get(0).get(0);
        assertThat(top.get("document").get("contents").asText()).isEqualTo("\"Paris\"\nParis is the capital of France.");
        assertThat(top.get("document").get("id").asText()).isEqualTo("1");
        assertThat(top.get("score").asDouble()).isPositive();
        assertThat(result.get(1).get(0).get("document").get("id").asText()).isEqualTo("3");

        JsonNode noScores = JSON.readTree(post("{\"queries\": [\"Berlin\"]}").body()).get("result").get(0).get(0);
        assertThat(noScores.get("contents").asText()).startsWith("\"Berlin\"\n");
    }

    /**
     * A FlashRAG corpus indexed with the default format and served: VeRL's search tool (and Search-R1's) takes the
     * first line of {@code contents} as the title, {@code Doc 1(Title: "Aaron") ...}, never {@code Title: ""}.
     */
    @Test
    void aFlashRagCorpusReadWithTheDefaultFormatIsServedWithItsTitles(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path corpus = java.nio.file.Files.writeString(tmp.resolve("wiki-18.jsonl"),
                "{\"id\": \"0\", \"contents\": \"\\\"Aaron\\\"\\nAaron is a prophet and high priest.\"}\n"
                        + "{\"id\": \"1\", \"contents\": \"\\\"Moses\\\"\\nMoses led the Israelites.\"}\n");
        try (LuceneIndex flash = LuceneIndex.inMemory(dev.veracity.retrieval.corpus.CorpusReader.readAll(corpus,
                     dev.veracity.retrieval.corpus.CorpusFormat.parse("jsonl")), null);
             RetrievalServer s = RetrievalServer.start(flash.bm25(), 0)) {
            var resp = HTTP.send(HttpRequest.newBuilder(URI.create(s.url())).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"queries\": [\"prophet\"], \"topk\": 1}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            String contents = JSON.readTree(resp.body()).at("/result/0/0/contents").asText();
            assertThat(contents).isEqualTo("\"Aaron\"\nAaron is a prophet and high priest.");
            // as VeRL's search tool renders it: title = contents.split("\n")[0], text = the rest
            String title = contents.split("\n")[0];
            String text = contents.substring(contents.indexOf('\n') + 1);
            assertThat("Doc 1(Title: " + title + ") " + text).isEqualTo("Doc 1(Title: \"Aaron\") Aaron is a prophet and"
                    + " high priest.");
            // and our client reads the passage back as it was indexed
            assertThat(new HttpRetriever(s.url()).search("Moses", 1)).extracting(Passage::title, Passage::text)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("Moses", "Moses led the Israelites."));
        }
    }

    @Test
    void badRequestsGet400WithAMessage() throws Exception {
        for (String body : List.of("not json", "{\"topk\": 3}", "{\"queries\": [1]}", "{\"queries\": [\"x\"], \"topk\": 0}",
                "{\"queries\": [\"x\"], \"return_scores\": \"yes\"}")) {
            var resp = post(body);
            assertThat(resp.statusCode()).as(body).isEqualTo(400);
            assertThat(JSON.readTree(resp.body()).at("/error/message").asText()).as(body).isNotBlank();
        }
        var get = HTTP.send(HttpRequest.newBuilder(URI.create(server.url())).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
    }

    @Test
    void aBatchOverTheLimitAndABodyOverTheLimitAre413BeforeAnySearch() throws Exception {
        AtomicInteger searches = new AtomicInteger();
        Retriever counting = (q, k) -> {
            searches.incrementAndGet();
            return List.of();
        };
        ServerLimits limits = ServerLimits.defaults().withMaxBatch(3).withMaxBodyBytes(1000);
        try (RetrievalServer s = RetrievalServer.start(counting, "127.0.0.1", 0, limits, ServerLog.none())) {
            var batch = send(s, "{\"queries\": [\"a\", \"b\", \"c\", \"d\"]}");
            assertThat(batch.statusCode()).isEqualTo(413);
            assertThat(JSON.readTree(batch.body()).at("/error/message").asText()).contains("4 items", "at most 3");
            var body = send(s, "{\"queries\": [\"" + "x".repeat(5000) + "\"]}");
            assertThat(body.statusCode()).isEqualTo(413);
            assertThat(searches).hasValue(0);
            // a new connection: the refused body was left unread, so the server may close the one it came on
            HttpResponse<String> ok;
            try (HttpClient fresh = HttpClient.newHttpClient()) {
                ok = fresh.send(HttpRequest.newBuilder(URI.create(s.url())).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"queries\": [\"a\", \"b\", \"c\"]}")).build(),
                        HttpResponse.BodyHandlers.ofString());
            }
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(searches).hasValue(3);
        }
    }

    @Test
    void aBatchPastTheDeadlineIsAnswered503AndStopsSearching() throws Exception {
        AtomicInteger searches = new AtomicInteger();
        Retriever slow = (q, k) -> {
            searches.incrementAndGet();
            long end = System.nanoTime() + 50_000_000L; // 50 ms of work per query, not interruptible by itself
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            return List.of();
        };
        ServerLimits limits = ServerLimits.defaults().withRequestDeadline(Duration.ofMillis(300));
        try (RetrievalServer s = RetrievalServer.start(slow, "127.0.0.1", 0, limits, ServerLog.none())) {
            String queries = String.join(", ", java.util.Collections.nCopies(200, "\"q\""));
            var resp = send(s, "{\"queries\": [" + queries + "]}");
            assertThat(resp.statusCode()).isEqualTo(503);
            Thread.sleep(300);
            // 200 queries would take 10 s; the search stopped at the query after the deadline
            assertThat(searches.get()).isBetween(1, 40);
        }
    }

    private static HttpResponse<String> send(RetrievalServer s, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(s.url())).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void httpRetrieverRoundTrips() {
        var remote = new HttpRetriever(server.url());
        List<Passage> hits = remote.search("capital of Germany", 1);
        assertThat(hits).singleElement().satisfies(p -> {
            assertThat(p.id()).isEqualTo("2");
            assertThat(p.title()).isEqualTo("Berlin");
            assertThat(p.text()).isEqualTo("Berlin is the capital of Germany.");
        });
        assertThat(remote.searchAll(List.of("Rome", "nothing matches zzz"), 3)).satisfies(r -> {
            assertThat(r.get(0)).extracting(Passage::id).containsExactly("3");
            assertThat(r.get(1)).isEmpty();
        });
        assertThatThrownBy(() -> new HttpRetriever("http://127.0.0.1:1/retrieve").search("x", 1))
                .hasMessageContaining("serve-retrieval");
    }
}
