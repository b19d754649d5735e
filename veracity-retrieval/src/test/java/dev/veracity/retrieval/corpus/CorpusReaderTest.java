package dev.veracity.retrieval.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
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
                new Document("1", "", "no title line"), new Document("2", "", "Unquoted Title\nIts text."),
                new Document("3", "Given", "Kept as text.\nAll of it."));
        // the quoted ones as --format flashrag reads them; flashrag splits an unquoted first line too, as FlashRAG does
        Path fr = Files.writeString(dir.resolve("fr.jsonl"), Files.readString(f).lines().limit(3)
                .collect(java.util.stream.Collectors.joining("\n")));
        assertThat(CorpusReader.readAll(fr, CorpusFormat.FLASHRAG)).containsExactly(read.get(0), read.get(1),
                new Document("2", "Unquoted Title", "Its text."));
        // a dataset's documents in FlashRAG's form too
        Path ds = Files.writeString(dir.resolve("ds.jsonl"),
                "{\"question\": \"q\", \"documents\": [{\"contents\": \"\\\"Aaron\\\"\\nAaron is a prophet.\"}]}\n");
        assertThat(CorpusReader.readAll(ds, CorpusFormat.DATASET)).containsExactly(
                new Document("0-0", "Aaron", "Aaron is a prophet."));
    }

    /**
     * Pyserini's JSONL collections ({@code {"id", "contents"}}, contents plain text, e.g. MS MARCO or a paragraph
     * corpus) under the default format: the whole contents is the text, its first paragraph no title. Only a first line
     * in quotes, as FlashRAG and Search-R1 write DPR's Wikipedia, is a title.
     */
    @Test
    void aPyseriniCorpusReadWithTheDefaultFormatKeepsItsWholeContentsAsText() throws Exception {
        Path f = Files.writeString(dir.resolve("collection.jsonl"), """
                {"id": "doc1", "contents": "The Manhattan Project was a research effort.\\nIt produced the first nuclear weapons."}
                {"id": "doc2", "contents": "\\"Quoted\\" is how the sentence starts, not a title.\\nSecond paragraph."}
                {"id": "doc3", "contents": "  \\"Aaron\\"  \\nAaron is a prophet."}
                {"id": "doc4", "contents": "\\"\\"Weird Al\\" Yankovic\\"\\nAn American singer."}
                {"id": "doc5", "contents": "\\"\\nA lone quote is no title."}
                """);
        assertThat(CorpusReader.readAll(f, CorpusFormat.JSONL)).containsExactly(
                new Document("doc1", "", "The Manhattan Project was a research effort.\nIt produced the first nuclear weapons."),
                new Document("doc2", "", "\"Quoted\" is how the sentence starts, not a title.\nSecond paragraph."),
                new Document("doc3", "Aaron", "Aaron is a prophet."),
                new Document("doc4", "\"Weird Al\" Yankovic", "An American singer."),
                new Document("doc5", "", "\"\nA lone quote is no title."));
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

    /**
     * Latin-1 text on line 3, in every format and compressed: refused at its file and line, never indexed as U+FFFD
     * (the dataset loaders' check, the same decoder).
     */
    @Test
    void textThatIsNotUtf8IsRefusedAtItsLineInEveryFormat() throws Exception {
        java.util.Map<CorpusFormat, String[]> lines = new java.util.LinkedHashMap<>();
        lines.put(CorpusFormat.JSONL, new String[] {"{\"_id\": \"a\", \"title\": \"T\", \"text\": \"caf\u00e9\"}",
                "{\"_id\": \"b\", \"text\": \"ok\"}", "{\"_id\": \"c\", \"text\": \"caf\u00e9\"}"});
        lines.put(CorpusFormat.FLASHRAG, new String[] {"{\"id\": \"a\", \"contents\": \"\\\"Caf\u00e9\\\"\\nx\"}",
                "{\"id\": \"b\", \"contents\": \"ok\"}", "{\"id\": \"c\", \"contents\": \"\\\"Caf\u00e9\\\"\\nx\"}"});
        lines.put(CorpusFormat.DPR_TSV, new String[] {"id\ttext\ttitle", "1\tcaf\u00e9 text\tT", "2\tcaf\u00e9 text\tT"});
        lines.put(CorpusFormat.CRAG, new String[] {"{\"interaction_id\": \"q\", \"search_results\": []}", "",
                "{\"interaction_id\": \"r\", \"search_results\": [{\"page_name\": \"caf\u00e9\", \"page_result\": \"<p>x</p>\"}]}"});
        lines.put(CorpusFormat.DATASET, new String[] {"{\"question\": \"q\", \"documents\": [{\"text\": \"ok\"}]}",
                "{\"question\": \"r\",", "  \"documents\": [{\"text\": \"caf\u00e9\"}]}"});
        for (var e : lines.entrySet()) {
            String[] l = e.getValue();
            String utf8 = String.join("\n", l) + "\n";
            // line 1 in UTF-8 (its é is fine), line 3 in Latin-1
            byte[] bytes = concat((l[0] + "\n" + l[1] + "\n").getBytes(StandardCharsets.UTF_8),
                    (l[2] + "\n").getBytes(StandardCharsets.ISO_8859_1));
            for (String name : List.of("corpus-" + e.getKey().cliName() + ".txt", "corpus-" + e.getKey().cliName() + ".gz")) {
                Path f = dir.resolve(name);
                write(f, bytes);
                assertThatThrownBy(() -> CorpusReader.readAll(f, e.getKey())).as(name)
                        .isInstanceOf(CorpusReader.CorpusFormatException.class)
                        .hasMessageStartingWith(f + ":3: not UTF-8 text: byte 0xE9 at character")
                        .hasMessageEndingWith("convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8)");
                write(f, utf8.getBytes(StandardCharsets.UTF_8));
                assertThat(CorpusReader.readAll(f, e.getKey())).as(name)
                        .anySatisfy(d -> assertThat(d.title() + d.text()).containsIgnoringCase("caf\u00e9"))
                        .allSatisfy(d -> assertThat(d.title() + d.text()).doesNotContain("\ufffd"));
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void write(Path f, byte[] bytes) throws java.io.IOException {
        if (f.getFileName().toString().endsWith(".gz")) {
            try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(f))) {
                out.write(bytes);
            }
        } else {
            Files.write(f, bytes);
        }
    }
}
