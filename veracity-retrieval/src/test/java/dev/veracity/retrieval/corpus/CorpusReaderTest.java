package dev.veracity.retrieval.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusReaderTest {

    @TempDir
    Path dir;

    @Test
    void readsBeirJsonl() throws Exception {
        Path f = Files.writeString(dir.resolve("corpus.jsonl"), """
                {"_id": "a", "title": "T", "text": "hello"}

                {"id": "b", "text": "world"}
                """);
        assertThat(CorpusReader.readAll(f, CorpusFormat.JSONL))
                .containsExactly(new Document("a", "T", "hello"), new Document("b", "", "world"));
        Files.writeString(f, "{\"title\": \"x\"}\n");
        assertThatThrownBy(() -> CorpusReader.readAll(f, CorpusFormat.JSONL)).hasMessageContaining(":1: no \"_id\"");
    }

    @Test
    void readsFlashRagCorpus() throws Exception {
        Path f = Files.writeString(dir.resolve("wiki.jsonl"), """
                {"id": "0", "contents": "\\"Aaron\\"\\nAaron is a prophet.\\nSecond line."}
                {"id": "1", "contents": "no title line"}
                """);
        assertThat(CorpusReader.readAll(f, CorpusFormat.parse("flashrag"))).containsExactly(
                new Document("0", "Aaron", "Aaron is a prophet.\nSecond line."), new Document("1", "", "no title line"));
        Files.writeString(f, "{\"id\": \"x\"}\n");
        assertThatThrownBy(() -> CorpusReader.readAll(f, CorpusFormat.FLASHRAG)).hasMessageContaining(":1: no \"contents\"");
    }

    @Test
    void aFlashRagCorpusReadWithTheDefaultFormatKeepsItsTitles() throws Exception {
        // FlashRAG's wiki-18 corpus lines, as `index` reads them without --format (jsonl)
        Path f = Files.writeString(dir.resolve("wiki-18.jsonl"), """
                {"id": "0", "contents": "\\"Aaron\\"\\nAaron is a prophet.\\nSecond line."}
                {"id": "1", "contents": "no title line"}
                {"id": "2", "contents": "Unquoted Title\\nIts text."}
                {"id": "3", "title": "Given", "contents": "Kept as text.\\nAll of it."}
                """);
        List<Document> read = CorpusReader.readAll(f, CorpusFormat.JSONL);
        assertThat(read).containsExactly(new Document("0", "Aaron", "Aaron is a prophet.\nSecond line."),
                new Document("1", "", "no title line"), new Document("2", "Unquoted Title", "Its text."),
                new Document("3", "Given", "Kept as text.\nAll of it."));
        // the same as --format flashrag
        Path fr = Files.writeString(dir.resolve("fr.jsonl"), Files.readString(f).lines().limit(3)
                .collect(java.util.stream.Collectors.joining("\n")));
        assertThat(CorpusReader.readAll(fr, CorpusFormat.FLASHRAG)).containsExactlyElementsOf(read.subList(0, 3));
        // a dataset's documents in FlashRAG's form too
        Path ds = Files.writeString(dir.resolve("ds.jsonl"),
                "{\"question\": \"q\", \"documents\": [{\"contents\": \"\\\"Aaron\\\"\\nAaron is a prophet.\"}]}\n");
        assertThat(CorpusReader.readAll(ds, CorpusFormat.DATASET)).containsExactly(
                new Document("0-0", "Aaron", "Aaron is a prophet."));
    }

    @Test
    void readsDprTsvWithHeaderAndQuotes() throws Exception {
        Path f = Files.writeString(dir.resolve("psgs.tsv"),
                "id\ttext\ttitle\n1\t\"He said \"\"hi\"\" there\"\tAaron\n2\tplain text\t\"Quoted\"\n");
        assertThat(CorpusReader.readAll(f, CorpusFormat.DPR_TSV)).containsExactly(
                new Document("1", "Aaron", "He said \"hi\" there"), new Document("2", "Quoted", "plain text"));
    }

    @Test
    void readsDatasetDocumentsAndHotpotContext() throws Exception {
        Path lines = Files.writeString(dir.resolve("ram.jsonl"), """
                {"question": "q", "documents": [{"text": "doc one"}, {"text": "doc two", "title": "Two"}]}
                {"question": "h", "context": [["Paris", [" Paris is big.", " It is old."]]]}
                """);
        assertThat(CorpusReader.readAll(lines, CorpusFormat.DATASET)).containsExactly(
                new Document("0-0", "", "doc one"), new Document("0-1", "Two", "doc two"),
                new Document("1-0", "Paris", "Paris is big. It is old."));
        Path array = Files.writeString(dir.resolve("hotpot.json"),
                "[{\"context\": {\"title\": [\"A\"], \"sentences\": [[\"x.\", \"y.\"]]}}]");
        assertThat(CorpusReader.readAll(array, CorpusFormat.DATASET)).containsExactly(new Document("0-0", "A", "x. y."));
    }

    @Test
    void splitsDprPassagesAndParsesFormats() {
        String text = String.join(" ", java.util.Collections.nCopies(250, "w"));
        List<String> ps = Passages.split(text, 100);
        assertThat(ps).hasSize(3);
        assertThat(ps.get(2).split(" ")).hasSize(50);
        assertThat(Passages.split("  ", 100)).isEmpty();
        assertThat(CorpusFormat.parse("DPR_TSV")).isEqualTo(CorpusFormat.DPR_TSV);
        assertThatThrownBy(() -> CorpusFormat.parse("xml")).hasMessageContaining("jsonl, flashrag, dpr-tsv, crag, dataset");
    }
}
