package dev.veracity.eval.ramdocs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RamdocsBuilderTest {

    @TempDir
    Path dir;

    static List<SourceRecord> source() {
        List<SourceRecord> out = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            int year = 1900 + i;
            out.add(new SourceRecord("When was Thing " + i + " founded?", List.of(
                    new SourceRecord.Answer(Integer.toString(year), "Thing " + i + " (city)",
                            List.of("Thing " + i + " city was founded in " + year + ".", "In " + year + " the city of Thing " + i + " began.",
                                    "Records say " + year + " for the city.")),
                    new SourceRecord.Answer(Integer.toString(year + 50), "Thing " + i + " (club)",
                            List.of("Thing " + i + " club was founded in " + (year + 50) + ".", "The club dates from " + (year + 50) + "."))),
                    i % 2 == 0 ? List.of("Unrelated text about weather " + i + ".") : List.of()));
            out.add(new SourceRecord("Who directed Film " + i + "?", List.of(new SourceRecord.Answer("Director Name" + (char) ('A' + i), "",
                    List.of("Film " + i + " was directed by Director Name" + (char) ('A' + i) + "."))), List.of()));
        }
        return out;
    }

    @Test
    void randomRecordsFollowTheReleaseFormatAndRanges() {
        List<ObjectNode> recs = RamdocsBuilder.build(source(), RamdocsBuilder.Options.random(7));
        assertThat(recs).hasSize(24);
        for (JsonNode r : recs) {
            assertThat(r.fieldNames()).toIterable().containsExactly("question", "documents", "disambig_entity", "gold_answers", "wrong_answers");
            int gold = r.get("gold_answers").size();
            assertThat(gold).isBetween(1, 3);
            long misinfo = 0;
            for (JsonNode d : r.get("documents")) {
                String type = d.get("type").asText();
                assertThat(type).isIn("correct", "misinfo", "noise");
                if (type.equals("misinfo")) {
                    misinfo++;
                    String wrong = d.get("answer").asText();
                    assertThat(d.get("text").asText()).contains(wrong);
                    // same type: a year for a year, a name for a name
                    assertThat(AnswerType.of(wrong)).isEqualTo(AnswerType.of(r.get("gold_answers").get(0).asText()));
                }
                if (type.equals("noise")) {
                    assertThat(d.get("answer").asText()).isEqualTo("unknown");
                }
            }
            assertThat(misinfo).isBetween(0L, 2L).isEqualTo(r.get("wrong_answers").size());
        }
        assertThat(RamdocsBuilder.build(source(), RamdocsBuilder.Options.random(7))).isEqualTo(recs);
        assertThat(RamdocsBuilder.build(source(), RamdocsBuilder.Options.random(8))).isNotEqualTo(recs);
    }

    @Test
    void controlledSubsetsOfSections62And63() {
        List<ObjectNode> imb = RamdocsBuilder.build(source(), new RamdocsBuilder.Options(RamdocsBuilder.Mode.IMBALANCE, 3, 1, 5));
        assertThat(imb).hasSize(5).allSatisfy(r -> {
            assertThat(r.get("gold_answers")).hasSize(2);
            assertThat(r.get("documents")).hasSize(4).allMatch(d -> d.get("type").asText().equals("correct"));
        });
        List<ObjectNode> mis = RamdocsBuilder.build(source(), new RamdocsBuilder.Options(RamdocsBuilder.Mode.MISINFORMATION, 2, 1, 0));
        assertThat(mis).hasSize(12).allSatisfy(r -> {
            assertThat(r.get("documents")).hasSize(4);
            assertThat(r.get("wrong_answers")).hasSize(2);
        });
    }

    @Test
    void typingHeuristic() {
        assertThat(AnswerType.of("1963")).isEqualTo(AnswerType.YEAR);
        assertThat(AnswerType.of("February 17, 1963")).isEqualTo(AnswerType.DATE);
        assertThat(AnswerType.of("3,559 people")).isEqualTo(AnswerType.NUMBER);
        assertThat(AnswerType.of("Mahesh Bhatt")).isEqualTo(AnswerType.NAME);
        assertThat(AnswerType.of("American football")).isEqualTo(AnswerType.NAME);
    }

    @Test
    void readsOurFormatAndAmbigDocsLikeRecords() throws Exception {
        Path f = dir.resolve("src.jsonl");
        Files.writeString(f, """
                {"question": "Q1?", "answers": [{"answer": "A", "documents": ["doc A"]}], "noise": ["n"]}
                {"question": "Q2?", "ambiguous_entity": "X", "documents": [{"title": "X (a)", "text": "t1", "answer": "B"}, {"title": "X (b)", "text": "t2", "answer": ["C"]}, {"title": "Y", "text": "t3", "answer": "B"}, {"text": "t4"}]}
                """);
        List<SourceRecord> recs = SourceReader.read(f);
        assertThat(recs).hasSize(2);
        assertThat(recs.get(0).noise()).containsExactly("n");
        assertThat(recs.get(1).answers()).extracting(SourceRecord.Answer::answer).containsExactly("B", "C");
        assertThat(recs.get(1).answers().getFirst().documents()).containsExactly("t1", "t3");
        assertThat(recs.get(1).answers().getFirst().entity()).isEqualTo("X (a)");
        assertThat(recs.get(1).noise()).containsExactly("t4");
    }
}
