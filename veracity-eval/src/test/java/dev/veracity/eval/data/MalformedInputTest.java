package dev.veracity.eval.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.qa.QaItem;
import dev.veracity.testing.CpuBudget;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken input fails with a message naming the file and the line or element; reading is lazy. */
class MalformedInputTest {

    @TempDir
    Path tmp;

    private Path write(String name, String content) throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, content);
        return f;
    }

    private static final String OK = "{\"question\": \"q\", \"answer\": [\"a\"]}\n";

    @Test
    void invalidJsonOnLine3() throws IOException {
        Path f = write("NQ-open.dev.jsonl", OK + OK + "{\"question\": \"q\", \"answer\": [\"a\"\n" + OK);
        assertThatThrownBy(() -> Datasets.load("nq-open", f)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("NQ-open.dev.jsonl:3: invalid JSON")
                .satisfies(e -> {
                    assertThat(((DatasetException) e).file()).isEqualTo(f);
                    assertThat(((DatasetException) e).where()).isEqualTo("3");
                });
        // Records before the broken line are read: the error comes when the stream reaches it.
        try (Stream<QaItem> items = Datasets.stream("nq-open", f)) {
            assertThat(items.limit(2)).hasSize(2);
        }
    }

    @Test
    void missingQuestion() throws IOException {
        String ramdocsOk = "{\"question\": \"q\", \"documents\": [{\"text\": \"t\", \"type\": \"correct\", "
                + "\"answer\": \"a\"}], \"gold_answers\": [\"a\"], \"wrong_answers\": []}\n";
        Path f = write("RAMDocs_test.jsonl", ramdocsOk.repeat(16)
                + "{\"documents\": [], \"gold_answers\": [\"a\"], \"wrong_answers\": []}\n");
        assertThatThrownBy(() -> Datasets.load("ramdocs", f)).isInstanceOf(DatasetException.class)
                .hasMessage("RAMDocs_test.jsonl:17: not a ramdocs record: missing field \"question\" (ramdocs records"
                        + " carry question, documents, gold_answers; this one has documents, gold_answers, wrong_answers)");
    }

    @Test
    void wrongTypes() throws IOException {
        Path f = write("paper_dev.jsonl", "{\"id\": 1, \"label\": \"SUPPORTS\", \"claim\": 42}\n");
        assertThatThrownBy(() -> Datasets.load("fever", f)).isInstanceOf(DatasetException.class)
                .hasMessage("paper_dev.jsonl:1: field \"claim\" must be a string, found a number");
        Path docs = write("RAMDocs.jsonl", "{\"question\": \"q\", \"documents\": [{\"text\": \"t\"}, \"oops\"],"
                + " \"gold_answers\": []}\n");
        assertThatThrownBy(() -> Datasets.load("ramdocs", docs)).isInstanceOf(DatasetException.class)
                .hasMessage("RAMDocs.jsonl:1: field \"documents[1]\" must be an object, found a string");
        Path nested = write("m.jsonl", "{\"question\": \"q\", \"answer\": \"a\", \"paragraphs\": [{\"idx\": 0,"
                + " \"title\": \"t\"}]}\n");
        assertThatThrownBy(() -> Datasets.load("musique", nested)).isInstanceOf(DatasetException.class)
                .hasMessage("m.jsonl:1: missing field \"paragraphs[0].paragraph_text\"");
        Path notObject = write("x.jsonl", OK + "[1, 2]\n");
        assertThatThrownBy(() -> Datasets.load("nq-open", notObject)).isInstanceOf(DatasetException.class)
                .hasMessage("x.jsonl:2: expected a JSON object, found an array");
    }

    @Test
    void jsonArrayErrorsNameTheElement() throws IOException {
        Path missing = write("hotpot.json", "[{\"question\": \"a\", \"answer\": \"b\"},\n {\"answer\": \"c\"}]");
        assertThatThrownBy(() -> Datasets.load("hotpotqa", missing)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("hotpot.json: element 1 (line 2): not a hotpotqa record: missing field"
                        + " \"question\"");
        Path broken = write("hotpot2.json", "[{\"question\": \"a\", \"answer\": \"b\"},\n{\"question\": \"c\",,}]");
        assertThatThrownBy(() -> Datasets.load("hotpotqa", broken)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("hotpot2.json: element 1 (line 2): invalid JSON");
        Path truncated = write("hotpot3.json", "[{\"question\": \"a\", \"answer\": \"b\"},");
        assertThatThrownBy(() -> Datasets.load("hotpotqa", truncated)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("hotpot3.json: element 1");
        Path scalar = write("hotpot4.json", "[{\"question\": \"a\", \"answer\": \"b\"}, 7]");
        assertThatThrownBy(() -> Datasets.load("hotpotqa", scalar)).isInstanceOf(DatasetException.class)
                .hasMessage("hotpot4.json: element 1 (line 1): expected a JSON object, found a number");
        Path badContext = write("hotpot5.json", "[{\"question\": \"a\", \"answer\": \"b\", \"context\": [[\"t\","
                + " \"not a list\"]]}]");
        assertThatThrownBy(() -> Datasets.load("hotpotqa", badContext)).isInstanceOf(DatasetException.class)
                .hasMessageContaining("hotpot5.json: element 0").hasMessageContaining("context[0]");
    }

    @Test
    void singlePrettyPrintedObjectWithoutRecordArray() throws IOException {
        Path f = write("wikipedia-dev.json", "{\n  \"Version\": 1.0,\n  \"Items\": [{\"Question\": \"q\"}]\n}\n");
        assertThatThrownBy(() -> Datasets.load("triviaqa", f)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("wikipedia-dev.json: one JSON object with no array of records in it")
                .hasMessageContaining("[Data, data]");
    }

    @Test
    void tsvErrorsNameTheLine() throws IOException {
        Path f = write("popQA.tsv", "id\tquestion\tpossible_answers\n1\tq1\t[\"a\"]\n2\tq2\n");
        assertThatThrownBy(() -> Datasets.load("popqa", f)).isInstanceOf(DatasetException.class)
                .hasMessage("popQA.tsv:3: expected 3 tab-separated fields (as in the header), found 2");
        Path bad = write("popQA2.tsv", "id\tquestion\tpossible_answers\n1\tq1\t[\"a\"\n");
        assertThatThrownBy(() -> Datasets.load("popqa", bad)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("popQA2.tsv:2: field \"possible_answers\" holds invalid JSON list");
        Path noQ = write("popQA3.tsv", "id\tpossible_answers\n1\t[\"a\"]\n");
        assertThatThrownBy(() -> Datasets.load("popqa", noQ)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("popQA3.tsv:2: not a popqa record: missing field \"question\"");
    }

    @Test
    void missingFileAndBadCompression() throws IOException {
        Path none = tmp.resolve("nope.jsonl");
        assertThatThrownBy(() -> Datasets.load("fever", none)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("nope.jsonl: cannot read");
        Path fakeBz2 = write("fake.jsonl.bz2", "not bzip2 at all");
        assertThatThrownBy(() -> Datasets.load("crag", fakeBz2)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("fake.jsonl.bz2: cannot read");
    }

    @Test
    void faithEvalAnswerKeyNotAmongChoices() throws IOException {
        Path f = write("counterfactual.jsonl", "{\"question\": \"q\", \"context\": \"c\", \"answerKey\": \"E\", "
                + "\"choices\": {\"label\": [\"A\", \"B\"], \"text\": [\"x\", \"y\"]}}\n");
        assertThatThrownBy(() -> Datasets.load("faitheval", f)).isInstanceOf(DatasetException.class)
                .hasMessage("counterfactual.jsonl:1: answerKey \"E\" is not among the choice labels [A, B]");
    }

    @Test
    void streamsALargeFileWithoutReadingItAll() throws IOException {
        Path big = tmp.resolve("big.jsonl");
        try (BufferedWriter w = Files.newBufferedWriter(big)) {
            for (int i = 0; i < 200_000; i++) {
                w.write("{\"question\": \"question number " + i + " with some padding text to make the line longer\","
                        + " \"answer\": [\"answer " + i + "\", \"alias " + i + "\"]}\n");
            }
            // A broken last line: a loader that read everything up front would fail.
            w.write("{broken\n");
        }
        // a generous budget of CPU time: the broken last line is the real proof
        List<QaItem> first = CpuBudget.call(Duration.ofSeconds(5), "the first 5 of 200,000 lines", () -> {
            try (Stream<QaItem> items = Datasets.stream("nq-open", big)) {
                return items.limit(5).toList();
            }
        });
        assertThat(first).extracting(QaItem::id).containsExactly("nq-open-0", "nq-open-1", "nq-open-2", "nq-open-3",
                "nq-open-4");

        // The same for a JSON array, element by element.
        Path arr = tmp.resolve("big.json");
        try (BufferedWriter w = Files.newBufferedWriter(arr)) {
            w.write("[");
            for (int i = 0; i < 200_000; i++) {
                w.write((i == 0 ? "" : ",\n") + "{\"question\": \"q" + i + "\", \"answer\": \"a\", \"type\": \"bridge\"}");
            }
            w.write(",\n{broken");
        }
        CpuBudget.run(Duration.ofSeconds(5), "the first 5 of 200,000 array elements", () -> {
            try (Stream<QaItem> items = Datasets.stream("hotpotqa", arr)) {
                assertThat(items.limit(5).map(QaItem::question).toList()).containsExactly("q0", "q1", "q2", "q3", "q4");
            }
        });
    }
}
