package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.cli.CliRun.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code veracity index} then {@code search}, in-process through the real command line. */
class IndexCommandTest {

    @TempDir
    Path dir;

    @Test
    void aFlashRagCorpusIndexedWithTheDefaultFormatKeepsItsTitles() throws Exception {
        // FlashRAG's corpus lines ({id, contents = "\"title\"\ntext"}), indexed without --format
        Path corpus = Files.writeString(dir.resolve("wiki-18.jsonl"), """
                {"id": "0", "contents": "\\"Aaron\\"\\nAaron is a prophet, high priest, and the brother of Moses."}
                {"id": "1", "contents": "\\"Paris\\"\\nParis is the capital of France."}
                """);
        Path index = dir.resolve("idx");
        Result built = run("index", "--corpus", corpus.toString(), "--out", index.toString());
        assertThat(built.code()).as(built.err()).isZero();
        Result found = run("search", "--index", index.toString(), "-k", "1", "brother of Moses");
        assertThat(found.code()).as(found.err()).isZero();
        assertThat(found.out()).contains("[0] Aaron\n").contains("Aaron is a prophet, high priest")
                .doesNotContain("\"Aaron\"");
    }

    @Test
    void aPyseriniCorpusIndexedWithTheDefaultFormatKeepsItsFirstParagraphAsText() throws Exception {
        // Pyserini's JSONL collection: contents is plain text, its first line a paragraph, not a title
        Path corpus = Files.writeString(dir.resolve("collection.jsonl"), """
                {"id": "d1", "contents": "The Manhattan Project produced the first nuclear weapons.\\nIt was led by the United States."}
                """);
        Path index = dir.resolve("pyserini-idx");
        Result built = run("index", "--corpus", corpus.toString(), "--out", index.toString());
        assertThat(built.code()).as(built.err()).isZero();
        Result found = run("search", "--index", index.toString(), "-k", "1", "Manhattan Project");
        assertThat(found.out()).contains("[d1] \n    The Manhattan Project produced the first nuclear weapons.\nIt was"
                + " led by the United States.");
    }

    @Test
    void anUnlabelledTestSplitIsIndexedAndItsPagesStoredButNotEvaluated() throws Exception {
        // MuSiQue's test split: questions and paragraphs, no answer (MusiqueLoader reads answer optionally)
        Path test = Files.writeString(dir.resolve("mtest.jsonl"), """
                {"id": "2hop__1_2", "question": "Where is the developer of Blast Corps based?", "paragraphs": [{"idx": 0, "title": "Blast Corps", "paragraph_text": "Blast Corps is a 1997 action video game developed by Rare.", "is_supporting": false}, {"idx": 1, "title": "Rare (company)", "paragraph_text": "Rare Ltd. is a British video game developer based in Twycross.", "is_supporting": false}], "question_decomposition": []}
                {"id": "2hop__3_4", "question": "Who founded Rare?", "paragraphs": [{"idx": 0, "title": "Rare (company)", "paragraph_text": "Rare was founded by Tim and Chris Stamper.", "is_supporting": false}], "question_decomposition": []}
                """);
        Path index = dir.resolve("midx");
        Result built = run("index", "--format", "dataset", "--dataset", "musique", "--corpus", test.toString(), "--out",
                index.toString());
        assertThat(built.code()).as(built.err()).isZero();
        assertThat(built.out()).contains("Indexed 3 passages");
        Result found = run("search", "--index", index.toString(), "-k", "1", "Tim and Chris Stamper");
        assertThat(found.out()).contains("Rare (company)").contains("founded by Tim and Chris Stamper");
        Result pages = run("index", "--pages", "--format", "dataset", "--dataset", "musique", "--corpus", test.toString(),
                "--out", dir.resolve("mpages").toString());
        assertThat(pages.code()).as(pages.err()).isZero();
        assertThat(pages.out()).contains("Stored 2 pages");
        // a command that scores answers refuses it, before any model call
        try (dev.veracity.sim.SimServer sim = dev.veracity.sim.SimServer.start(dev.veracity.sim.SimConfig.builder().build())) {
            Result eval = run("eval", "--method", "standard-rag", "--dataset", "musique", "--data", test.toString(), "--out",
                    dir.resolve("out").toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off");
            assertThat(eval.code()).isEqualTo(2);
            assertThat(eval.err().strip().lines()).singleElement().asString().startsWith("veracity eval: mtest.jsonl:1:"
                    + " musique record without its gold answers: missing field \"answer\"");
            assertThat(sim.counters().generationRequests()).isZero();
        }
        Result export = run("rl", "export", "--format", "verl", "--dataset", "musique", "--data", test.toString(),
                "--prompt", "no-rag", "--out", dir.resolve("x.parquet").toString());
        assertThat(export.code()).isEqualTo(2);
        assertThat(export.err()).contains("musique record without its gold answers");
        // indexing still checks what makes a record MuSiQue's: NQ-open questions have no paragraphs
        Path nq = Files.writeString(dir.resolve("nq.jsonl"), "{\"question\": \"who wrote hamlet\", \"answer\": [\"Shakespeare\"]}\n");
        Result wrong = run("index", "--format", "dataset", "--dataset", "musique", "--corpus", nq.toString(), "--out",
                dir.resolve("nqidx").toString());
        assertThat(wrong.code()).isEqualTo(2);
        assertThat(wrong.err()).contains("nq.jsonl:1: not a musique record: missing field \"paragraphs\"");
    }

    @Test
    void aCorpusOrPageDumpThatIsNotUtf8IsRefusedWithItsLineAndNothingUsableIsLeft() throws Exception {
        Path corpus = dir.resolve("latin1.jsonl");
        Files.write(corpus, ("{\"_id\": \"a\", \"title\": \"Paris\", \"text\": \"Paris is big.\"}\n"
                + "{\"_id\": \"b\", \"title\": \"Caf\u00e9\", \"text\": \"A caf\u00e9 serves coffee.\"}\n")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Result index = run("index", "--corpus", corpus.toString(), "--out", dir.resolve("idx").toString());
        assertThat(index.code()).isEqualTo(2);
        assertThat(index.err().strip().lines()).singleElement().asString().isEqualTo("veracity index: " + corpus
                + ":2: not UTF-8 text: byte 0xE9 at character 27 of the line; convert the file to UTF-8 (e.g. iconv -f"
                + " latin1 -t utf-8)");
        assertThat(dir.resolve("idx").resolve("veracity-index.json")).doesNotExist();
        Result pages = run("index", "--pages", "--format", "jsonl", "--corpus", corpus.toString(), "--out",
                dir.resolve("pages").toString());
        assertThat(pages.code()).isEqualTo(2);
        assertThat(pages.err().strip().lines()).singleElement().asString().startsWith("veracity index: " + corpus
                + ":2: not UTF-8 text: byte 0xE9");
        assertThat(dir.resolve("pages").resolve("veracity-pages.json")).doesNotExist();
    }

    @Test
    void theOpenSearchLoadsFlagsWithAFolderAreAnErrorNotIgnored() throws Exception {
        Path corpus = Files.writeString(dir.resolve("c.jsonl"), "{\"_id\": \"a\", \"title\": \"P\", \"text\": \"Paris.\"}\n");
        for (String[] flag : new String[][] {{"--batch", "50"}, {"--shards", "3"}}) {
            Result r = run("index", "--corpus", corpus.toString(), "--out", dir.resolve("idx").toString(), flag[0], flag[1]);
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err().strip().lines()).singleElement().asString().contains("--batch and --shards are for an"
                    + " OpenSearch --out");
            assertThat(dir.resolve("idx")).doesNotExist();
        }
    }
}
