package dev.veracity.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Query;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.retrieval.lucene.IndexBuilder;
import dev.veracity.retrieval.lucene.LuceneIndex;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ContentRetriever over an index folder as {@code veracity index} writes it, against what {@code search} finds. */
class VeracityContentRetrieverTest {

    static final List<Document> CORPUS = List.of(
            new Document("eiffel-1", "Eiffel Tower", "The Eiffel Tower is located in Paris, the capital of France."),
            new Document("eiffel-2", "Eiffel Tower", "Gustave Eiffel's company built the tower, which was completed in 1889."),
            new Document("paris", "Paris", "Paris hosts millions of visitors every year."),
            new Document("louvre", "Louvre", "The Louvre in Paris is the world's most-visited museum."),
            new Document("rome", "Colosseum", "The Colosseum in Rome was completed in 80 AD under Titus."),
            new Document("tower-bridge", "Tower Bridge", "Tower Bridge in London was completed in 1894."));

    @TempDir
    static Path dir;
    static Path index;

    @BeforeAll
    static void buildIndex() throws Exception {
        index = dir.resolve("idx");
        writeIndex(index, CORPUS);
    }

    /** An index folder as {@code veracity index --corpus FILE --out DIR} builds it (BM25 only). */
    static void writeIndex(Path out, List<Document> docs) throws Exception {
        try (IndexBuilder b = IndexBuilder.builder().open(out)) {
            b.addAll(docs);
        }
    }

    @Test
    void topKIsWhatSearchFinds() throws Exception {
        String q = "When was the tower completed?";
        List<Passage> searched;
        try (LuceneIndex idx = LuceneIndex.open(index)) { // as SearchCommand does: --mode bm25 -k 3
            searched = idx.retriever("bm25", null).search(q, 3);
        }
        try (VeracityContentRetriever r = VeracityContentRetriever.builder().index(index).maxResults(3).build()) {
            List<Content> found = r.retrieve(Query.from(q));
            assertThat(found).hasSize(3);
            assertThat(found).extracting(c -> c.textSegment().metadata().getString("id"))
                    .containsExactlyElementsOf(searched.stream().map(Passage::id).toList());
            assertThat(found).extracting(c -> c.textSegment().text())
                    .containsExactlyElementsOf(searched.stream().map(Passage::text).toList());
            assertThat(found).extracting(c -> (Double) c.metadata().get(ContentMetadata.SCORE))
                    .containsExactlyElementsOf(searched.stream().map(Passage::score).toList());
            assertThat(found.getFirst().textSegment().metadata().getString("title")).isEqualTo(searched.getFirst().title());
            assertThat(searched).extracting(Passage::id).contains("eiffel-2", "tower-bridge");
        }
    }

    /** Words hashed into 64 buckets, L2-normalised: a deterministic stand-in for an embedding model. */
    static final Embedder WORDS = new Embedder() {
        @Override
        public List<float[]> embed(List<String> texts) {
            return texts.stream().map(t -> {
                float[] v = new float[dimension()];
                for (String w : t.toLowerCase(java.util.Locale.ROOT).split("\\W+")) {
                    if (!w.isEmpty()) {
                        v[Math.floorMod(w.hashCode(), v.length)] += 1;
                    }
                }
                double n = 0;
                for (float x : v) {
                    n += x * x;
                }
                for (int i = 0; i < v.length; i++) {
                    v[i] = n == 0 ? (i == 0 ? 1 : 0) : (float) (v[i] / Math.sqrt(n));
                }
                return v;
            }).toList();
        }

        @Override
        public int dimension() {
            return 64;
        }

        @Override
        public String name() {
            return "hashed-words";
        }
    };

    @Test
    void denseAndHybridRankAsSearchDoes() throws Exception {
        Path dense = dir.resolve("dense");
        try (IndexBuilder b = IndexBuilder.builder().embedder(WORDS).open(dense)) {
            b.addAll(CORPUS);
        }
        String q = "Eiffel tower completed";
        for (String mode : List.of("dense", "hybrid")) {
            List<Passage> searched;
            try (LuceneIndex idx = LuceneIndex.open(dense)) { // as SearchCommand does: --mode MODE -k 4
                searched = idx.retriever(mode, WORDS).search(q, 4);
            }
            try (VeracityContentRetriever r = VeracityContentRetriever.builder().index(dense).mode(mode).embedder(WORDS)
                    .maxResults(4).build()) {
                assertThat(r.retrieve(Query.from(q))).extracting(c -> c.textSegment().metadata().getString("id"))
                        .as(mode).containsExactlyElementsOf(searched.stream().map(Passage::id).toList()).hasSize(4);
            }
        }
        Embedder other = new Embedder() {
            @Override
            public List<float[]> embed(List<String> texts) {
                return WORDS.embed(texts);
            }

            @Override
            public int dimension() {
                return 64;
            }
        };
        assertThatThrownBy(() -> VeracityContentRetriever.builder().index(dense).mode("dense").embedder(other).build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("was embedded with hashed-words");
    }

    @Test
    void returnsTheDefaultFiveAndNothingForANonMatch() {
        try (VeracityContentRetriever r = VeracityContentRetriever.builder().index(index).build()) {
            assertThat(r.retrieve(Query.from("Paris tower completed museum Rome London"))).hasSize(5);
            assertThat(r.retrieve(Query.from("zyxwvut"))).isEmpty();
        }
    }

    @Test
    void badSettingsAreInvalidRequestsWithTheReason() {
        assertThatThrownBy(() -> VeracityContentRetriever.builder().index(dir.resolve("none")).build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("./veracity index");
        assertThatThrownBy(() -> VeracityContentRetriever.builder().build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("name the index folder");
        assertThatThrownBy(() -> VeracityContentRetriever.builder().index(index).mode("fuzzy").build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("unknown search mode 'fuzzy'");
        assertThatThrownBy(() -> VeracityContentRetriever.builder().index(index).mode("dense").build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("has no vectors");
        assertThatThrownBy(() -> VeracityContentRetriever.builder().index(index).maxResults(0).build())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("maxResults must be >= 1");
    }
}
