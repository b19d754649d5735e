package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.eval.run.DocumentSource;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.Retriever;
import dev.veracity.retrieval.lucene.LuceneIndex;
import dev.veracity.sim.SimConfig;
import dev.veracity.trace.CallContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Documents from the server's index for requests that send none, retrieved as {@code eval --index} retrieves them
 * ({@link DocumentSource}); the request's own documents win over the index; a method that compares documents by
 * embedding gets the embedder, loaded on first use.
 */
class IndexTest {

    private static final List<dev.veracity.retrieval.corpus.Document> CORPUS = List.of(
            new dev.veracity.retrieval.corpus.Document("p1", "Eiffel Tower", "The Eiffel Tower is located in Paris, the capital of France."),
            new dev.veracity.retrieval.corpus.Document("p2", "Eiffel Tower", "The tower was completed in 1889 for the World's Fair."),
            new dev.veracity.retrieval.corpus.Document("p3", "Colosseum", "The Colosseum is an amphitheatre in the centre of Rome."),
            new dev.veracity.retrieval.corpus.Document("p4", "Big Ben", "Big Ben is the nickname of the Great Bell in London."),
            new dev.veracity.retrieval.corpus.Document("p5", "Louvre", "The Louvre in Paris is the world's most visited museum."));

    @Test
    void requestsWithoutDocumentsGetTheIndexsTopKAsEvalWould() throws Exception {
        try (LuceneIndex index = LuceneIndex.inMemory(CORPUS, null); Retriever bm25 = index.retriever("bm25", null)) {
            DocumentSource source = DocumentSource.index(bm25, Path.of("test-index"), index.metadata().corpusSha256(), 2, "bm25");
            try (Served s = Served.start(SimConfig.defaults(), x -> x, b -> b.index(source, bm25), Duration.ofSeconds(30))) {
                String noDocs = "{\"model\": \"standard-rag\", \"messages\": [{\"role\": \"user\", \"content\": "
                        + Http.JSON.valueToTree(Served.QUESTION) + "}]}";
                Http.Reply r = Http.post(s.v1() + "/chat/completions", noDocs);
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                assertThat(r.json().at("/veracity/documents/source").asText()).isEqualTo("index");
                List<Document> retrieved = source.prepare(Methods.byName("standard-rag"),
                        QaItem.of("x", Served.QUESTION, List.of())).item().documents();
                List<String> ids = new ArrayList<>();
                r.json().at("/veracity/documents/ids").forEach(i -> ids.add(i.asText()));
                assertThat(ids).hasSize(2).isEqualTo(retrieved.stream().map(Document::id).toList()).contains("p1");
                assertThat(r.json().at("/choices/0/message/content").asText()).isEqualTo(
                        s.inProcess("standard-rag", Served.QUESTION, retrieved, Map.of()).answer().prediction());

                // the request's documents replace the index's
                Http.Reply own = Http.post(s.v1() + "/chat/completions", Http.chat("standard-rag", ""));
                assertThat(own.json().at("/veracity/documents/source").asText()).isEqualTo("request");
                assertThat(own.json().at("/veracity/documents/count").asInt()).isEqualTo(Served.DOCS.size());
            }
        }
    }

    @Test
    void aMethodThatEmbedsDocumentsGetsTheEmbedderAndAnswersAsInProcess() throws Exception {
        Embedder embedder = LocalEmbedders.bgeSmall();
        try (Served s = Served.start(SimConfig.defaults(), x -> x, b -> b.embedder(() -> embedder), Duration.ofSeconds(30))) {
            QaMethod m = Methods.byName("speculative-rag");
            assertThat(m.needs(Capability.EMBEDDER)).isTrue();
            Http.Reply r = Http.post(s.v1() + "/chat/completions", Http.chat("speculative-rag", ""));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            try (var client = dev.veracity.llm.client.LlmClient.builder(s.backend).build()) {
                MethodContext ctx = new MethodContext(client, CallContext.of("ref", "q", m.name()), "", false,
                        m.spec().resolve(Map.of()).values(), null, embedder);
                MethodAnswer expected = m.answer(new QaItem(Pipeline.itemId(Served.QUESTION, Served.DOCS), Served.QUESTION,
                        Served.DOCS, List.of(), List.of(), null, Map.of(), null), ctx);
                assertThat(r.json().at("/choices/0/message/content").asText()).isEqualTo(expected.prediction());
            }
        }
    }

    @Test
    void aServerThatCannotEmbedRefusesAMethodThatEmbedsBeforeAnyModelCall() throws Exception {
        // as serve without the optional embed part: the in-process model's lookup fails with the part's one line
        String missing = "the in-process embedding model (bge-small, e5) is the optional embed part";
        try (Served s = Served.start(SimConfig.defaults(), x -> x, b -> b.embedder(() -> {
            throw new IllegalStateException(missing);
        }), Duration.ofSeconds(30))) {
            s.sim.clearRecentRequests();
            Http.Reply r = Http.post(s.v1() + "/chat/completions", Http.chat("speculative-rag", ""));
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.error().path("code").asText()).isEqualTo("missing_embedder");
            assertThat(r.error().path("param").asText()).isEqualTo("model");
            assertThat(r.error().path("message").asText()).isEqualTo("method speculative-rag compares documents by"
                    + " embedding and this server cannot embed: " + missing);
            assertThat(s.sim.recentRequests()).isEmpty();
            // methods that do not embed are answered as before
            assertThat(Http.post(s.v1() + "/chat/completions", Http.chat("standard-rag", "")).status()).isEqualTo(200);
        }
    }
}
