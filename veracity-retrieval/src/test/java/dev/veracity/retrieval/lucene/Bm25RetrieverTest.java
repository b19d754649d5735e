package dev.veracity.retrieval.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.corpus.Document;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Bm25RetrieverTest {

    static final List<Document> DOCS = List.of(
            new Document("d1", "Colorado orogeny", "The Colorado orogeny was an episode of mountain building in Colorado."),
            new Document("d2", "High Plains", "The High Plains are a subregion of the Great Plains, rising in elevation."),
            new Document("d3", "Dogs", "Running dogs' owners walk their dogs every morning."));

    @Test
    void analyzerLowercasesDropsStopWordsPossessivesAndStems() throws Exception {
        List<String> terms = new ArrayList<>();
        try (var a = new AnseriniAnalyzer(); var ts = a.tokenStream("contents", "The Running Dog's owners are in THE parks")) {
            var term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                terms.add(term.toString());
            }
            ts.end();
        }
        assertThat(terms).containsExactly("run", "dog", "owner", "park");
    }

    @Test
    void bagOfWordsBoostsRepeatedTermsAndIsNullForStopWordsOnly() {
        var q = Bm25Retriever.bagOfWords(new AnseriniAnalyzer(), "contents", "dogs dog running");
        assertThat(q.toString()).isEqualTo("(contents:dog)^2.0 contents:run");
        assertThat(Bm25Retriever.bagOfWords(new AnseriniAnalyzer(), "contents", "the of and")).isNull();
    }

    @Test
    void ranksInMemoryIndexAndFindsByTitle() throws Exception {
        try (LuceneIndex index = LuceneIndex.inMemory(DOCS, null)) {
            List<Passage> hits = index.bm25().search("mountain building colorado", 10);
            assertThat(hits).first().extracting(Passage::id, Passage::title).containsExactly("d1", "Colorado orogeny");
            assertThat(hits.getFirst().text()).startsWith("The Colorado orogeny");
            assertThat(index.bm25().search("high plains", 1)).extracting(Passage::id).containsExactly("d2");
            assertThat(index.bm25().searchField(IndexFields.TITLE, "dog", 3)).extracting(Passage::id).containsExactly("d3");
            assertThat(index.bm25().search("the", 10)).isEmpty();
            assertThatThrownBy(() -> index.dense(null)).hasMessageContaining("--dense");
        }
    }

    @Test
    void buildsOnDiskOnceAndOpensReadOnlyForConcurrentSearchers(@TempDir Path dir) throws Exception {
        List<Document> docs = IntStream.range(0, 2000)
                .mapToObj(i -> new Document("p" + i, "Page " + i, "common words and token" + i + " marker" + (i % 7)))
                .toList();
        try (IndexBuilder b = IndexBuilder.create(dir, null, null)) {
            b.addAll(docs);
        }
        IndexMetadata meta = IndexMetadata.read(dir);
        assertThat(meta.passages()).isEqualTo(2000);
        assertThat(meta.embeddingModel()).isNull();
        assertThat(meta.corpusSha256()).matches("[0-9a-f]{64}");
        try (IndexBuilder again = IndexBuilder.create(dir.resolve("again"), null, null)) {
            again.addAll(docs);
        }
        assertThat(IndexMetadata.read(dir.resolve("again")).corpusSha256()).isEqualTo(meta.corpusSha256());
        try (LuceneIndex index = LuceneIndex.open(dir)) {
            assertThat(index.size()).isEqualTo(2000);
            var r = index.bm25();
            IntStream.range(0, 200).parallel().forEach(i ->
                    assertThat(r.search("token" + i, 3)).first().extracting(Passage::id).isEqualTo("p" + i));
            assertThatThrownBy(() -> index.retriever("dense", null)).hasMessageContaining("--dense");
            assertThatThrownBy(() -> index.retriever("fuzzy", null)).hasMessageContaining("bm25, dense or hybrid");
        }
        assertThatThrownBy(() -> LuceneIndex.open(dir.resolve("missing"))).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("./veracity index");
    }
}
