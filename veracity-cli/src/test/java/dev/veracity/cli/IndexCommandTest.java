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
}
