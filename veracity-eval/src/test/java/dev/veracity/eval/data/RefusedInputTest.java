package dev.veracity.eval.data;

import static dev.veracity.eval.data.TestFiles.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.qa.QaItem;
import dev.veracity.testing.Shared;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that would load into wrong numbers is refused with its file and line: records of another dataset (they would
 * load with no gold answers), text that is not UTF-8 (it would load with U+FFFD in questions and answers), repeated
 * ids (a run keyed by id would answer one and count both) and files with no record.
 */
class RefusedInputTest {

    @TempDir
    Path tmp;

    private Path write(String name, String content) throws IOException {
        return write(name, content.getBytes(StandardCharsets.UTF_8));
    }

    private Path write(String name, byte[] content) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, content);
        return f;
    }

    private static final String RAMDOCS_ROW = "{\"question\": \"What is the population of Broken Bow?\", \"documents\":"
            + " [{\"text\": \"Broken Bow had 3,559 people.\", \"type\": \"correct\", \"answer\": \"3,559\"}],"
            + " \"disambig_entity\": [\"Broken Bow, Nebraska\"], \"gold_answers\": [\"3,559\"], \"wrong_answers\": []}\n";

    @Test
    void ramDocsReadAsNqOpenIsRefusedNamingRamDocs() throws IOException {
        Path f = write("RAMDocs_test.jsonl", RAMDOCS_ROW.repeat(3));
        assertThatThrownBy(() -> Datasets.load("nq-open", f)).isInstanceOf(DatasetException.class)
                .hasMessage("RAMDocs_test.jsonl:1: not a nq-open record: missing field \"answer\" or \"answers\"; it has"
                        + " the fields of ramdocs (--dataset ramdocs)")
                .satisfies(e -> assertThat(((DatasetException) e).where()).isEqualTo("1"));
        // the alias is the same dataset, with the same check
        assertThatThrownBy(() -> Datasets.load("nq", f)).hasMessageContaining("not a nq-open record");
        // read as what it is, it loads with its gold answers
        assertThat(Datasets.load("ramdocs", f)).allSatisfy(i -> assertThat(i.goldTexts()).containsExactly("3,559"));
    }

    @Test
    void theRealRamDocsFileReadAsNqOpenIsRefused() {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        assertThatThrownBy(() -> Datasets.load("nq-open", ramdocs))
                .hasMessageStartingWith("RAMDocs_test.jsonl:1: not a nq-open record")
                .hasMessageEndingWith("(--dataset ramdocs)");
    }

    @Test
    void aRecordMissingAFieldMidFileIsRefusedAtItsLine() throws IOException {
        Path f = write("nq.jsonl", "{\"question\": \"q1\", \"answer\": [\"a\"]}\n\n{\"question\": \"q2\", \"answers\": [\"b\"]}\n"
                + "{\"question\": \"q3\"}\n");
        assertThatThrownBy(() -> Datasets.load("nq-open", f)).hasMessage("nq.jsonl:4: nq-open record without its gold"
                + " answers: missing field \"answer\" or \"answers\"; this command scores answers against them (an"
                + " unlabelled split can only be indexed: ./veracity index --format dataset --dataset nq-open)");
        Path g = write("nq2.jsonl", "{\"question\": \"q1\", \"answer\": [\"a\"]}\n{\"query\": \"q2\", \"answers\": [\"b\"]}\n");
        assertThatThrownBy(() -> Datasets.load("nq-open", g)).hasMessage("nq2.jsonl:2: not a nq-open record: missing"
                + " field \"question\" (nq-open records carry question, answer|answers; this one has query, answers)");
    }

    /** MuSiQue's test split as released for its leaderboard: questions and paragraphs, no answers. */
    private static final String MUSIQUE_TEST_ROW = "{\"id\": \"2hop__1_2\", \"paragraphs\": [{\"idx\": 0, \"title\":"
            + " \"Blast Corps\", \"paragraph_text\": \"Blast Corps is a 1997 game by Rare.\", \"is_supporting\": false}],"
            + " \"question\": \"Who developed Blast Corps?\", \"question_decomposition\": []}\n";

    @Test
    void anUnlabelledSplitIsReadWithoutGoldWhereNothingIsScoredAndRefusedWhereAnswersAre() throws IOException {
        Path f = write("musique_ans_v1.0_test.jsonl", MUSIQUE_TEST_ROW + MUSIQUE_TEST_ROW.replace("2hop__1_2", "2hop__3_4"));
        // scored (eval, reproduce, exports): refused at the first record, saying it has no gold
        for (String name : List.of("musique", "musique-answerable")) {
            assertThatThrownBy(() -> Datasets.load(name, f)).isInstanceOf(DatasetException.class)
                    .hasMessageStartingWith("musique_ans_v1.0_test.jsonl:1: " + name + " record without its gold answers:"
                            + " missing field \"answer\"");
        }
        // indexed: its questions and paragraphs, with no gold
        List<QaItem> items;
        try (var s = Datasets.stream("musique", f, GoldFields.OPTIONAL)) {
            items = s.toList();
        }
        assertThat(items).extracting(QaItem::id).containsExactly("2hop__1_2", "2hop__3_4");
        assertThat(items.getFirst().goldTexts()).isEmpty();
        assertThat(items.getFirst().documents()).singleElement().satisfies(d -> assertThat(d.title()).isEqualTo("Blast Corps"));
        // the same for the other releases whose test split comes without answers
        Map<String, String> unlabelled = Map.of("fever", "{\"id\": 1, \"claim\": \"Paris is in France.\"}",
                "nq-open", "{\"question\": \"who wrote hamlet\"}", "hotpotqa", "{\"_id\": \"a1\", \"question\": \"q?\","
                        + " \"context\": [[\"Hamlet\", [\"Hamlet is a play.\"]]]}");
        for (var e : unlabelled.entrySet()) {
            Path test = write(e.getKey() + "_test.jsonl", e.getValue() + "\n");
            assertThatThrownBy(() -> Datasets.load(e.getKey(), test)).as(e.getKey())
                    .hasMessageContaining(e.getKey() + " record without its gold answers");
            try (var s = Datasets.stream(e.getKey(), test, GoldFields.OPTIONAL)) {
                assertThat(s.toList()).as(e.getKey()).singleElement().satisfies(i -> assertThat(i.gold()).isEmpty());
            }
        }
    }

    @Test
    void withoutTheGoldCheckTheFormatIsStillCheckedAndARecordOfAnotherDatasetNamed() throws IOException {
        // RAMDocs has NQ-open's question: read for scoring it is refused, naming RAMDocs, as before
        Path ramdocs = write("RAMDocs_test.jsonl", RAMDOCS_ROW);
        assertThatThrownBy(() -> Datasets.load("nq-open", ramdocs)).hasMessageEndingWith("it has the fields of ramdocs"
                + " (--dataset ramdocs)");
        // read as MuSiQue without gold it lacks MuSiQue's paragraphs: refused, naming the datasets it fits
        assertThatThrownBy(() -> {
            try (var s = Datasets.stream("musique", ramdocs, GoldFields.OPTIONAL)) {
                s.toList();
            }
        }).hasMessage("RAMDocs_test.jsonl:1: not a musique record: missing field \"paragraphs\"; it has the fields of"
                + " ramdocs (--dataset ramdocs)");
        // an unlabelled MuSiQue record read as RAMDocs for indexing: the format it has is named
        Path musique = write("musique_test.jsonl", MUSIQUE_TEST_ROW);
        assertThatThrownBy(() -> {
            try (var s = Datasets.stream("ramdocs", musique, GoldFields.OPTIONAL)) {
                s.toList();
            }
        }).hasMessage("musique_test.jsonl:1: not a ramdocs record: missing field \"documents\"; it has the fields of"
                + " musique or musique-answerable (--dataset musique)");
    }

    /**
     * Every fixture read under every other dataset's name: either the records carry that dataset's fields too (and load),
     * or they are refused, and then the dataset they came from is among those the message names.
     */
    @Test
    void everyFixtureReadAsAnotherDatasetNamesItsOwn() {
        Map<String, String> fixtures = Map.ofEntries(Map.entry("2wikimultihopqa_dev.json", "2wikimultihopqa"),
                Map.entry("ambigdocs_dev.json", "ambigdocs"), Map.entry("crag_small.jsonl", "crag"),
                Map.entry("faitheval_counterfactual.jsonl", "faitheval"),
                Map.entry("faitheval_inconsistent.json", "faitheval"), Map.entry("faitheval_unanswerable.jsonl", "faitheval"),
                Map.entry("hotpot_dev_distractor_v1.json", "hotpotqa"), Map.entry("musique_full_v1.0_dev.jsonl", "musique"),
                Map.entry("popQA.tsv", "popqa"), Map.entry("ragtruth_simple.jsonl", "ragtruth"));
        int refused = 0;
        for (var e : fixtures.entrySet()) {
            Path file = fixture(e.getKey());
            assertThat(Datasets.load(e.getValue(), file)).as(e.getKey()).isNotEmpty();
            for (String other : Datasets.names()) {
                try {
                    Datasets.load(other, file);
                } catch (DatasetException ex) {
                    if (ex.getMessage().contains("not a " + other + " record")) {
                        refused++;
                        assertThat(ex.getMessage()).as(e.getKey() + " as " + other).contains("it has the fields of")
                                .contains(e.getValue());
                    }
                }
            }
        }
        assertThat(refused).isGreaterThan(50);
    }

    @Test
    void feverAndCragReadAsQuestionDatasetsNameThemselves() throws IOException {
        Path fever = write("paper_dev.jsonl", "{\"id\": 1, \"verifiable\": \"VERIFIABLE\", \"label\": \"SUPPORTS\","
                + " \"claim\": \"Paris is in France.\", \"evidence\": []}\n");
        assertThatThrownBy(() -> Datasets.load("nq-open", fever)).hasMessageEndingWith("it has the fields of fever"
                + " (--dataset fever)");
        assertThatThrownBy(() -> Datasets.load("hotpotqa", fixture("crag_small.jsonl")))
                .hasMessageEndingWith("it has the fields of crag or crag-snippets (--dataset crag)");
    }

    @Test
    void textThatIsNotUtf8IsRefusedAtItsLine() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("{\"question\": \"caf\u00e9?\", \"answer\": [\"a\"]}\n".getBytes(StandardCharsets.UTF_8));
        b.writeBytes("{\"question\": \"q2\", \"answer\": [\"a\"]}\r\n".getBytes(StandardCharsets.UTF_8));
        b.writeBytes("{\"question\": \"caf".getBytes(StandardCharsets.UTF_8));
        b.write(0xE9); // Latin-1 é
        b.writeBytes("?\", \"answer\": [\"a\"]}\n".getBytes(StandardCharsets.UTF_8));
        Path f = write("latin1.jsonl", b.toByteArray());
        assertThatThrownBy(() -> Datasets.load("nq-open", f)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("latin1.jsonl:3: not UTF-8 text: byte 0xE9 at character 18 of the line")
                .satisfies(e -> assertThat(((DatasetException) e).where()).isEqualTo("3"));
        // the same bytes compressed, in a JSON array and in a TSV name their line too
        Path gz = tmp.resolve("latin1.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(b.toByteArray());
        }
        assertThatThrownBy(() -> Datasets.load("nq-open", gz)).hasMessageStartingWith("latin1.jsonl.gz:3: not UTF-8");
        ByteArrayOutputStream arr = new ByteArrayOutputStream();
        arr.writeBytes("[{\"question\": \"q\", \"answer\": \"a\"},\n{\"question\": \"".getBytes(StandardCharsets.UTF_8));
        arr.write(0xC3); // a lead byte without its continuation
        arr.writeBytes("x\", \"answer\": \"a\"}]".getBytes(StandardCharsets.UTF_8));
        Path json = write("hotpot.json", arr.toByteArray());
        assertThatThrownBy(() -> Datasets.load("hotpotqa", json)).hasMessageStartingWith("hotpot.json:2: not UTF-8 text:"
                + " byte 0xC3 at character 15");
        ByteArrayOutputStream tsv = new ByteArrayOutputStream();
        tsv.writeBytes("id\tquestion\tpossible_answers\n1\tq\t[\"a\"]\n2\tq".getBytes(StandardCharsets.UTF_8));
        tsv.write(0xFF);
        tsv.writeBytes("\t[\"b\"]\n".getBytes(StandardCharsets.UTF_8));
        Path popqa = write("popQA.tsv", tsv.toByteArray());
        assertThatThrownBy(() -> Datasets.load("popqa", popqa)).hasMessageStartingWith("popQA.tsv:3: not UTF-8 text: byte"
                + " 0xFF");
        // UTF-8 é reads as é (no replacement character anywhere)
        Path ok = write("ok.jsonl", "{\"question\": \"caf\u00e9 \ud83d\ude00?\", \"answer\": [\"cr\u00e8me\"]}\n");
        QaItem item = Datasets.load("nq-open", ok).getFirst();
        assertThat(item.question()).isEqualTo("caf\u00e9 \ud83d\ude00?");
        assertThat(item.goldTexts()).containsExactly("cr\u00e8me");
    }

    @Test
    void aBadByteFarIntoALargeFileNamesItsLine() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 1; i < 5000; i++) {
            b.writeBytes(("{\"question\": \"question " + i + " \u00e9\u00e8 with padding\", \"answer\": [\"x\"]}\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        b.writeBytes("{\"question\": \"".getBytes(StandardCharsets.UTF_8));
        b.write(0xE2);
        b.write(0x28); // a lead byte followed by a non-continuation byte
        b.writeBytes("\", \"answer\": [\"x\"]}\n".getBytes(StandardCharsets.UTF_8));
        Path f = write("big.jsonl", b.toByteArray());
        assertThatThrownBy(() -> Datasets.load("nq-open", f)).hasMessageStartingWith("big.jsonl:5000: not UTF-8 text:"
                + " byte 0xE2 at character 15 of the line");
        // a file cut inside a character
        byte[] cut = "{\"question\": \"q\", \"answer\": [\"\u00e9\"]}\n{\"question\": \"\u00e9".getBytes(StandardCharsets.UTF_8);
        Path cutFile = write("cut.jsonl", java.util.Arrays.copyOf(cut, cut.length - 1));
        assertThatThrownBy(() -> Datasets.load("nq-open", cutFile)).hasMessageStartingWith("cut.jsonl:2: not UTF-8 text:"
                + " the file ends inside a character, byte 0xC3");
    }

    @Test
    void repeatedIdsAreRefusedAtTheSecond() throws IOException {
        Path f = write("paper_dev.jsonl", "{\"id\": 7, \"label\": \"SUPPORTS\", \"claim\": \"a\"}\n"
                + "{\"id\": 8, \"label\": \"REFUTES\", \"claim\": \"b\"}\n{\"id\": 7, \"label\": \"SUPPORTS\", \"claim\": \"c\"}\n");
        assertThatThrownBy(() -> Datasets.load("fever", f)).isInstanceOf(DatasetException.class)
                .hasMessage("paper_dev.jsonl:3: duplicate id \"7\": an earlier record has it; every question needs its own"
                        + " id");
        Path arr = write("ambig.json", "[{\"qid\": \"x\", \"question\": \"q\", \"documents\": []},"
                + " {\"qid\": \"x\", \"question\": \"q2\", \"documents\": []}]");
        assertThatThrownBy(() -> Datasets.load("ambigdocs", arr)).hasMessageStartingWith("ambig.json: element 1 (line 1):"
                + " duplicate id \"x\"");
        // records without ids get distinct ones from their position
        Path noIds = write("nq.jsonl", "{\"question\": \"q\", \"answer\": [\"a\"]}\n".repeat(3));
        assertThat(Datasets.load("nq-open", noIds)).extracting(QaItem::id).doesNotHaveDuplicates().hasSize(3);
    }

    @Test
    void idFingerprintsKeepEveryDistinctIdAndAMaybeIsConfirmedFromTheFile() throws IOException {
        SeenIds seen = new SeenIds();
        for (int i = 0; i < 300_000; i++) {
            assertThat(seen.add("2hop__" + i + "_" + (i * 31))).isTrue();
        }
        assertThat(seen.add("2hop__7_217")).isFalse();
        assertThat(SeenIds.fingerprint("")).isNotZero();
        // a fingerprint seen before is only a maybe: the loader reads the earlier items again to be sure
        Path f = write("paper_dev.jsonl", "{\"id\": 7, \"label\": \"SUPPORTS\", \"claim\": \"a\"}\n"
                + "{\"id\": 8, \"label\": \"REFUTES\", \"claim\": \"b\"}\n");
        RecordLoader fever = (RecordLoader) Datasets.byName("fever");
        assertThat(fever.amongFirst(f, "8", 1)).isFalse();
        assertThat(fever.amongFirst(f, "8", 2)).isTrue();
        assertThat(fever.amongFirst(f, "9", 2)).isFalse();
    }

    @Test
    void filesWithoutARecordAreRefused() throws IOException {
        for (var e : Map.of("empty.jsonl", "", "blank.jsonl", "\n  \n", "empty.json", "", "spaces.json", " \n\t ")
                .entrySet()) {
            Path f = write(e.getKey(), e.getValue());
            assertThatThrownBy(() -> Datasets.load("fever", f)).as(e.getKey()).isInstanceOf(DatasetException.class)
                    .hasMessage(e.getKey() + ": the file is empty: no records to read");
        }
        Path array = write("empty-array.json", "[ ]");
        assertThatThrownBy(() -> Datasets.load("hotpotqa", array)).hasMessage("empty-array.json: no records: the array"
                + " of records is empty");
        Path wrapped = write("wikipedia-dev.json", "{\"Version\": 1, \"Data\": []}");
        assertThatThrownBy(() -> Datasets.load("triviaqa", wrapped)).hasMessageContaining("no records");
        Path header = write("popQA.tsv", "id\tquestion\tpossible_answers\n");
        assertThatThrownBy(() -> Datasets.load("popqa", header)).hasMessage("popQA.tsv: no records: the file holds only"
                + " its header line");
        Path gz = tmp.resolve("empty.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(new byte[0]);
        }
        assertThatThrownBy(() -> Datasets.load("nq-open", gz)).hasMessage("empty.jsonl.gz: the file is empty: no records"
                + " to read");
        // streaming: the refusal comes on the first look, before anything else is read
        assertThatThrownBy(() -> {
            try (var s = Datasets.stream("nq-open", write("e.jsonl", ""))) {
                s.findFirst();
            }
        }).isInstanceOf(DatasetException.class);
    }
}
