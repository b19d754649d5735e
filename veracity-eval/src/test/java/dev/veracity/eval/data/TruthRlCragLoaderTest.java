package dev.veracity.eval.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TruthRL's processed CRAG (issue 25, point 3): records shaped as the authors' evaluate.py reads them, the chunks
 * filtered as their model.py's format_prompts filters them (restated here from that code, not copied data).
 */
class TruthRlCragLoaderTest {

    @TempDir
    Path dir;

    @Test
    void keepsTheChunksTheAuthorsKeepInOrderWithTheirGoldAnswersAndQueryTime() throws Exception {
        Path f = dir.resolve("truthrl_crag_test.jsonl");
        Files.writeString(f, """
                {"interaction_id": "a1", "query": "how many times has rory mcilroy won the masters?", "query_time": "03/13/2024, 09:30:59 PT", "answer": "invalid question", "alt_ans": "['never', \\"hasn't won\\"]", "domain": "sports", "question_type": "false_premise", "static_or_dynamic": "static", "retrieved_chunks": [{"chunk_text": "kept: bge 3", "bge_score": 3, "oracle_score": 0}, {"chunk_text": "dropped: bge 1, its oracle 5 not looked at", "bge_score": 1, "oracle_score": 5}, {"chunk_text": "kept: bge null, oracle 3", "bge_score": null, "oracle_score": 3}, {"chunk_text": "dropped: oracle 2", "oracle_score": 2}, {"chunk_text": "kept: no score"}, {"chunk_text": "kept: bge 2 exactly", "bge_score": "2.0"}], "reward_model": {"ground_truth": {"out_of_knowledge": true}}}
                {"query": "what is six times seven?", "query_time": 1709700000000, "answer": 42, "alt_ans": ["forty-two"], "retrieved_chunks": []}
                {"interaction_id": "a3", "query": "q3", "answer": "x", "alternative_answers": "[\\"y\\"]", "retrieved_chunks": []}
                """);
        List<QaItem> items = Datasets.load("truthrl-crag", f);
        assertThat(items).hasSize(3);
        QaItem q = items.getFirst();
        assertThat(q.id()).isEqualTo("a1");
        assertThat(q.queryTime()).isEqualTo("03/13/2024, 09:30:59 PT");
        assertThat(q.goldForms()).containsExactly("invalid question", "never", "hasn't won"); // [answer] + alt_ans
        assertThat(q.documents()).extracting(Document::text).containsExactly("kept: bge 3", "kept: bge null, oracle 3",
                "kept: no score", "kept: bge 2 exactly");
        assertThat(q.documents()).allSatisfy(d -> assertThat(d.titled()).isEqualTo(d.text())); // "Document [i]: chunk_text"
        assertThat(q.documents().getFirst().label("bge_score")).isEqualTo("3");
        assertThat(q.metadata()).containsEntry("question_type", "false_premise").containsEntry("out_of_knowledge", "true");
        assertThat(items.get(1).id()).isEqualTo("truthrl-crag-1");
        assertThat(items.get(1).goldForms()).containsExactly("42", "forty-two");
        assertThat(items.get(1).queryTime()).isEqualTo("1709700000000");
        assertThat(items.get(2).goldForms()).containsExactly("x", "y");
        assertThat(DatasetProfile.of("truthrl-crag").metrics()).containsExactly("truthfulness-answer", "em");
        // each CRAG reading says which references it gives, for the run's summary
        assertThat(Datasets.spec("truthrl-crag").references()).contains("retrieved_chunks", "bge_score >= 2",
                "oracle_score >= 3");
        assertThat(Datasets.spec("crag").references()).contains("whole web page");
        assertThat(Datasets.spec("crag-snippets").references()).contains("snippet");
    }

    @Test
    void aScoreOrAListItCannotReadIsAnErrorNamingTheField() throws Exception {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, """
                {"query": "q", "answer": "a", "retrieved_chunks": [{"chunk_text": "t", "bge_score": "high"}]}
                """);
        assertThatThrownBy(() -> Datasets.load("truthrl-crag", bad)).isInstanceOf(DatasetException.class)
                .hasMessageContaining("retrieved_chunks[0].bge_score").hasMessageContaining("must be a number");
        Files.writeString(bad, """
                {"query": "q", "answer": "a", "alt_ans": "['unclosed", "retrieved_chunks": []}
                """);
        assertThatThrownBy(() -> Datasets.load("truthrl-crag", bad)).isInstanceOf(DatasetException.class)
                .hasMessageContaining("alt_ans");
    }

    @Test
    void pythonListLiteralsAreReadAsAstLiteralEvalReadsThemAndAnythingElseIsNoList() {
        assertThat(PythonStrings.list("['a', \"b's\", 'c\\'d', 'e\\\\f', 7, None,]"))
                .containsExactly("a", "b's", "c'd", "e\\f", "7", "None");
        assertThat(PythonStrings.list("[]")).isEmpty();
        assertThat(PythonStrings.list("  [ 'x' ]  ")).containsExactly("x");
        assertThat(PythonStrings.list("['a' 'b']")).isNull();
        assertThat(PythonStrings.list("['a',, 'b']")).isNull();
        assertThat(PythonStrings.list("['a")).isNull();
        assertThat(PythonStrings.list("a")).isNull();
        assertThat(PythonStrings.list("[{'k': 1}]")).isNull();
        // linear: a long unclosed literal is refused in one pass
        assertThat(PythonStrings.list("['" + "x".repeat(1_000_000) + "]")).isNull();
    }
}
