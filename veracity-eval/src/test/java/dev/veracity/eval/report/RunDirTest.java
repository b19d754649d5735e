package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RunDir: a compact table of the answered questions, the whole lines streamed again on demand. */
class RunDirTest {

    @TempDir
    Path tmp;

    private Path run(String name, String summaryMetrics, List<String> lines) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"no-rag\", \"dataset\": \"crag\", \"metrics\": "
                + summaryMetrics + "}");
        Files.write(dir.resolve("results.jsonl"), lines);
        return dir;
    }

    /** An answered line of question {@code id} (gold "Paris"); {@code v} marks which record of the id it is. */
    private static String answer(String id, String prediction, int calls, String v) {
        return "{" + (id == null ? "" : "\"id\": \"" + id + "\", ") + "\"question\": \"Capital of France?\", "
                + "\"question_type\": \"" + (calls % 2 == 0 ? "comparison" : "simple") + "\", \"topic\": \"t" + calls % 2
                + "\", \"prediction\": \"" + prediction + "\", \"gold\": [\"Paris\"], \"wrong\": [], \"metrics\": {\"em\": "
                + (prediction.equals("Paris") ? "1.0" : "0.0") + "}, \"calls\": " + calls + ", \"parse_failures\": "
                + (calls > 2 ? "[\"x\"]" : "[]") + ", \"error\": " + (calls == 1 ? "\"boom\"" : "null") + ", \"raw\": \"" + v
                + "\"}";
    }

    private static String failure(String id, String reason) {
        return "{\"id\": \"" + id + "\", \"question\": \"" + id + "?\", \"failed\": \"" + reason
                + "\", \"failed_kind\": \"TIMEOUT\"}";
    }

    private static List<String> streamed(RunDir run) {
        List<String> out = new ArrayList<>();
        run.forEachResult(l -> out.add(l.raw()));
        return out;
    }

    /** Lines of 20 KB each: a RunDir that kept the lines (or any JSON tree of them) would hold 40 MB here. */
    @Test
    void keepsAFewBytesAQuestionAndNoJsonTreeOfALineWhateverTheLinesCarry() throws IOException {
        int n = 2_000;
        Path dir = Files.createDirectories(tmp.resolve("big"));
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"no-rag\", \"metrics\": {\"em\": 0.5, \"f1\": 0.5}}");
        String documents = "lorem ipsum ".repeat(20_000 / 12);
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("results.jsonl"), StandardCharsets.UTF_8)) {
            for (int i = 0; i < n; i++) {
                String line = answer("q" + i, i % 2 == 0 ? "Paris" : "Rome", 1 + i % 4, "x");
                w.write(line.substring(0, line.length() - 1) + ", \"trace_run\": \"" + documents + "\"}\n");
            }
        }
        assertThat(Files.size(dir.resolve("results.jsonl"))).isGreaterThan(n * 20_000L);

        RunDir run = RunDir.load(dir);

        assertThat(run.answered()).isEqualTo(n);
        RetainedSize kept = RetainedSize.of(run, run.summary());
        assertThat(kept.reaches(JsonNode.class)).as("a JSON tree of a result line is kept").isFalse();
        assertThat(kept.bytes()).as("bytes kept for %d questions", n).isLessThan(200L * n);
        // the figures come from the table
        assertThat(run.perQuestion("calls").getAsDouble()).isEqualTo(2.5);
        ComparisonTable.Cell em = ComparisonTable.of(List.of(run)).tables().getFirst().rows().getFirst().metrics().get("em");
        assertThat(em.value()).isEqualTo(0.5);
        assertThat(em.n()).isEqualTo(n);
        // streaming hands every line back whole, one at a time
        long[] chars = {0};
        run.forEachResult(l -> chars[0] += l.traceRun().length());
        assertThat(chars[0]).isEqualTo((long) n * documents.length());
    }

    /**
     * The heap a loaded run holds does not grow with its questions: its columns are off the heap, with no String,
     * map entry or boxed number per question; ids are still found, each once, and a run's questions joined with
     * another's by id whatever their order.
     */
    @Test
    void theHeapARunHoldsIsTheSameForTwentyTimesTheQuestions() throws IOException {
        long[] kept = new long[2];
        int[] sizes = {500, 10_000};
        for (int k = 0; k < sizes.length; k++) {
            int n = sizes[k];
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                lines.add(answer("q" + i, i % 3 == 0 ? "Paris" : "Rome", 1 + i % 4, "x"));
            }
            RunDir run = RunDir.load(run("flat" + n, "{\"em\": 0.5}", lines));
            // another run of the same questions in the reverse order, every question right
            List<String> reversed = new ArrayList<>();
            for (int i = n - 1; i >= 0; i--) {
                reversed.add(answer("q" + i, "Paris", 1 + i % 4, "x"));
            }
            RunDir other = RunDir.load(run("flat-other" + n, "{\"em\": 0.5}", reversed));

            assertThat(run.answered()).isEqualTo(n);
            kept[k] = RetainedSize.of(run, run.summary()).bytes();
            assertThat(run.table().rowOf("q" + (n - 1))).isEqualTo(n - 1);
            assertThat(run.table().rowOf("q" + n)).isEqualTo(-1);
            assertThat(other.table().rowOf(run.table(), 0)).isEqualTo(n - 1);
            PairedComparison.Difference d = PairedComparison.against(run, List.of(other), 200, 1L).getFirst();
            assertThat(d.difference().n()).isEqualTo(n);
            assertThat(d.better()).isEqualTo(n - (n + 2) / 3);
            assertThat(d.worse()).isZero();
            assertThat(d.betterIds()).containsExactly("q1", "q2", "q4", "q5", "q7");
        }
        assertThat(kept[1]).as("heap kept for %d questions against %d for %d", sizes[1], kept[0], sizes[0])
                .isLessThan(kept[0] + 1_000);
    }

    @Test
    void theFirstAnswerCountsTornLinesAreSkippedAndAFailureAnsweredLaterIsNotFailedInTheTableAndTheStream()
            throws IOException {
        RunDir run = RunDir.load(run("rules", "{\"em\": 0.5}", List.of(
                answer("a", "Rome", 1, "a1"),
                failure("b", "timeout"),
                answer("c", "Paris", 2, "c1"),
                answer("a", "Paris", 3, "a2"),     // a answered again (a file joined by hand): the first answer counts
                answer("b", "Paris", 4, "b1"),     // b failed, then answered: answered
                "",
                failure("d", "server error"),      // d never answered: failed
                failure("c", "late"),              // a failure after an answer: ignored, as ResultsFile ignores it
                answer(null, "Rome", 5, "no-id"),  // a line without an id counts, once, but pairs with nothing
                "{\"id\": \"e\", \"question\": \"torn")));

        assertThat(run.answered()).isEqualTo(4);
        assertThat(streamed(run)).containsExactly("a1", "c1", "b1", "no-id");
        assertThat(run.failed()).containsExactly("d");
        assertThat(run.failures(10)).extracting(f -> f.failed()).containsExactly("server error");
        assertThat(run.skippedLines()).isEqualTo(1);
        assertThat(run.n()).isEqualTo(4);
        assertThat(run.perQuestion("calls").getAsDouble()).isEqualTo((1 + 2 + 4 + 5) / 4.0);
        assertThat(run.parseFailures()).isEqualTo(2); // b1 and no-id have one each; a2 is not counted
        assertThat(run.errors()).isEqualTo(1);         // a1's
        assertThat(byId("em", run)).containsExactly(Map.entry("a", 0.0), Map.entry("c", 1.0),
                Map.entry("b", 1.0));
        ComparisonTable.Cell em = ComparisonTable.of(List.of(run)).tables().getFirst().rows().getFirst().metrics().get("em");
        assertThat(em.n()).isEqualTo(4);
        assertThat(em.value()).isEqualTo(0.5);
    }

    @Test
    void aSubsetHasItsRowsWhetherTheFieldIsKeptOrReadFromTheFile() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add(answer("q" + i, i < 3 ? "Paris" : "Rome", i, "v" + i));
        }
        RunDir run = RunDir.load(run("sub", "{\"em\": 0.3}", lines));

        RunDir byType = run.subset("question_type", "comparison"); // a column of the table
        // a field the table does not keep is not a breakdown: one line that names the ones there are
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> run.subset("topic", "t0"))
                .hasMessageContaining("question_type");
        for (RunDir part : List.of(byType)) {
            assertThat(part.answered()).isEqualTo(5);
            assertThat(part.n()).isEqualTo(5);
            assertThat(streamed(part)).containsExactly("v0", "v2", "v4", "v6", "v8");
            assertThat(part.perQuestion("calls").getAsDouble()).isEqualTo(4.0);
            assertThat(part.failed()).isEmpty();
            assertThat(byId("em", part)).containsOnlyKeys("q0", "q2", "q4", "q6", "q8");
        }
        assertThat(run.subset("question_type", "none").answered()).isZero();
    }

    @Test
    void aMetricTheRunDidNotScoreWhileLoadingIsScoredFromTheFile() throws IOException {
        RunDir run = RunDir.load(run("other", "{\"em\": 0.5}", List.of(answer("a", "Paris", 1, "a"),
                answer("b", "the city of Paris", 2, "b"))));
        // f1 is a baseline's metric, not this run's: re-scored from prediction and gold as the table does
        assertThat(byId("f1", run).get("a")).isEqualTo(1.0);
        assertThat(byId("f1", run).get("b")).isCloseTo(0.5, within(1e-9));
        // a name no registry knows: the lines' stored value, or none
        assertThat(byId("rounds", run)).isEmpty();
    }

    @Test
    void streamingAFileRewrittenSinceLoadingFailsInOneLineInsteadOfMixingQuestions() throws IOException {
        Path dir = run("changed", "{\"em\": 0.5}", List.of(answer("a", "Paris", 1, "a"), answer("b", "Rome", 2, "b")));
        RunDir run = RunDir.load(dir);
        Files.write(dir.resolve("results.jsonl"), List.of(answer("b", "Rome", 2, "b"), answer("a", "Paris", 1, "a")));

        assertThatThrownBy(() -> run.forEachResult(l -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("changed since it was read")
                .hasMessageContaining("run the command again")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        Files.write(dir.resolve("results.jsonl"), List.of(answer("a", "Paris", 1, "a")));
        assertThatThrownBy(() -> run.forEachResult(l -> { })).hasMessageContaining("line 2");
    }

    /** The run.json an eval writes before its first question (EvalCommand's RunConfig). */
    private static final String RUN_JSON = "{\"method\": \"no-rag\", \"method_options\": {}, \"dataset\": \"crag\","
            + " \"data\": \"/data/crag.jsonl\", \"metrics\": [\"em\", \"f1\"], \"model\": \"qwen\","
            + " \"llm_base_url\": \"http://127.0.0.1:8000/v1\", \"documents\": \"dataset\", \"judge\": \"none\"}";

    @Test
    void aRunInterruptedBeforeItsSummaryIsReadAsPartialFromItsConfigurationAndLines() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("interrupted"));
        Files.writeString(dir.resolve("run.json"), RUN_JSON);
        Files.write(dir.resolve("results.jsonl"), List.of(answer("a", "Paris", 2, "a"), answer("b", "Rome", 2, "b"),
                failure("c", "timeout"), answer("d", "Paris", 4, "d"), "{\"id\": \"e\", \"question\": \"to"));

        RunDir run = RunDir.load(dir);

        assertThat(run.partial()).isEqualTo("no summary.json: its eval was interrupted or is still running");
        assertThat(run.method()).isEqualTo("no-rag");
        assertThat(run.dataset()).isEqualTo("crag");
        assertThat(run.model()).isEqualTo("qwen");
        assertThat(run.n()).isEqualTo(3);
        assertThat(run.failed()).containsExactly("c");
        assertThat(run.metrics()).containsOnlyKeys("em", "f1");
        assertThat(run.metrics().get("em")).isCloseTo(2 / 3.0, within(1e-12));
        assertThat(run.mainMetric()).isEqualTo("em");
        assertThat(run.summary().toJson().at("/metrics_n/em").asInt()).isEqualTo(3);
        assertThat(run.perQuestion("calls").getAsDouble()).isCloseTo(8 / 3.0, within(1e-12));
        ComparisonTable table = ComparisonTable.of(List.of(run));
        ComparisonTable.Row row = table.tables().getFirst().rows().getFirst();
        assertThat(row.questions()).isEqualTo(3);
        assertThat(row.metrics().get("em").n()).isEqualTo(3);
        assertThat(table.text()).contains("* interrupted: partial, 3 questions answered so far (no summary.json: its"
                + " eval was interrupted or is still running); run its eval command again to finish it");
        assertThat(table.json()).contains("\"partial\" : \"no summary.json: its eval was interrupted or is still running\"");
        assertThat(table.markdown()).contains("_interrupted: partial, 3 questions answered so far");
    }

    @Test
    void aSummaryOlderThanItsLinesIsReadAsPartialWithTheLinesFigures() throws IOException {
        Path dir = run("resumed", "{\"em\": 1.0, \"f1\": 1.0}", List.of(answer("a", "Paris", 2, "a"),
                answer("b", "Paris", 2, "b"), answer("c", "Rome", 2, "c"), answer("d", "Rome", 2, "d")));
        // the summary of the first two questions; the eval was resumed for four and interrupted after them
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"no-rag\", \"dataset\": \"crag\", \"n\": 2,"
                + " \"metrics\": {\"em\": 1.0, \"f1\": 1.0, \"em.extra\": 3}, \"metrics_n\": {\"em\": 2, \"f1\": 2},"
                + " \"calls_per_question\": 9, \"finished\": \"2026-01-01T00:00:00Z\"}");

        RunDir run = RunDir.load(dir);

        assertThat(run.partial()).isEqualTo("summary.json counts 2 answered questions, results.jsonl holds 4: its eval"
                + " was interrupted, or is running, after the summary was written");
        assertThat(run.n()).isEqualTo(4);
        assertThat(run.metrics()).containsExactly(Map.entry("em", 0.5), Map.entry("f1", 0.5));
        assertThat(run.perQuestion("calls").getAsDouble()).isEqualTo(2.0); // the lines', not 9
        assertThat(RunDir.text(run.summary().finished())).isEmpty();
        ComparisonTable.Cell em = ComparisonTable.of(List.of(run)).tables().getFirst().rows().getFirst().metrics().get("em");
        assertThat(em.value()).isEqualTo(0.5);
        assertThat(em.n()).isEqualTo(4);
        // a summary that agrees with its lines is a finished run
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"no-rag\", \"dataset\": \"crag\", \"n\": 4,"
                + " \"metrics\": {\"em\": 0.5}}");
        assertThat(RunDir.load(dir).partial()).isNull();
    }

    /**
     * A run made at 2 questions at once over an index, resumed and interrupted: read as partial it still says how it ran
     * (compare's legend and retrieval column), and its retrieval record loses only the figures of the older summary.
     */
    @Test
    void aPartialRunKeepsItsQuestionsAtOnceAndRetrievalWhereTheSummarySaysThem() throws IOException {
        Path dir = run("resumed-at-2", "{}", List.of(answer("a", "Paris", 2, "a"), answer("b", "Paris", 2, "b"),
                answer("c", "Rome", 2, "c")));
        Files.writeString(dir.resolve("summary.json"), "{\"method\": \"standard-rag\", \"dataset\": \"crag\", \"n\": 1,"
                + " \"metrics\": {\"em\": 1.0}, \"questions_at_once\": 2, \"retrieval\": {\"source\": \"index\","
                + " \"index\": \"/idx/wiki-bm25\", \"corpus_sha256\": \"ab12\", \"k\": 5, \"mode\": \"bm25\","
                + " \"replaces_dataset_documents\": true, \"answer_recall_at_k\": 1.0, \"questions_with_gold\": 1,"
                + " \"ms_per_question\": 3.5}}");
        Path other = run("finished-at-16", "{\"em\": 1.0}", List.of(answer("a", "Paris", 2, "a")));
        Files.writeString(other.resolve("summary.json"), "{\"method\": \"no-rag\", \"dataset\": \"crag\", \"n\": 1,"
                + " \"metrics\": {\"em\": 1.0}, \"questions_at_once\": 16, \"retrieval\": {\"source\": \"none\"}}");

        RunDir run = RunDir.load(dir);

        assertThat(run.partial()).startsWith("summary.json counts 1 answered questions, results.jsonl holds 3");
        assertThat(run.questionsAtOnce()).hasValue(2);
        assertThat(run.retrieval()).isEqualTo("bm25 k=5 wiki-bm25");
        JsonNode retrieval = run.summary().toJson().path("retrieval");
        assertThat(retrieval.path("corpus_sha256").asText()).isEqualTo("ab12");
        assertThat(retrieval.has("answer_recall_at_k")).as("stale: folded from 1 line of 3").isFalse();
        assertThat(retrieval.has("ms_per_question")).isFalse();
        ComparisonTable table = ComparisonTable.of(List.of(run, RunDir.load(other)));
        ComparisonTable.Row row = table.tables().getFirst().rows().stream().filter(r -> r.run().equals("resumed-at-2"))
                .findFirst().orElseThrow();
        assertThat(row.questionsAtOnce()).isEqualTo(2);
        assertThat(row.retrieval()).isEqualTo("bm25 k=5 wiki-bm25");
        assertThat(table.legend()).contains("(2, 16 at once: the runs differ)");
        // interrupted before its summary: the index its run.json names
        Path early = Files.createDirectories(tmp.resolve("interrupted-early"));
        Files.writeString(early.resolve("run.json"), RUN_JSON.replace("\"documents\": \"dataset\"",
                "\"documents\": \"/data/my idx/wiki-bm25 k=10 hybrid\""));
        Files.write(early.resolve("results.jsonl"), List.of(answer("a", "Paris", 2, "a")));
        assertThat(RunDir.load(early).retrieval()).isEqualTo("hybrid k=10 wiki-bm25");
        Files.writeString(early.resolve("run.json"), RUN_JSON);
        assertThat(RunDir.load(early).retrieval()).isEmpty(); // its own documents or none: the method decides
    }

    @Test
    void aFolderThatCannotBeNamedIsRefusedSayingWhy() throws IOException {
        Path lines = Files.createDirectories(tmp.resolve("lines-only"));
        Files.write(lines.resolve("results.jsonl"), List.of(answer("a", "Paris", 1, "a")));
        assertThatThrownBy(() -> RunDir.load(lines)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neither summary.json nor run.json");
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertThatThrownBy(() -> ComparisonTable.load(List.of(empty))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no summary.json and no results.jsonl: not an eval run folder");
    }

    /** A metric's per-question values keyed by question id in the dataset's order, as the paired comparison joins them. */
    private static Map<String, Double> byId(String metric, RunDir run) {
        NumberColumn scores = run.scores(metric);
        ResultTable t = run.table();
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        for (int row : t.datasetOrder()) {
            if (t.hasId(row) && scores.has(row)) {
                out.put(t.id(row), scores.get(row));
            }
        }
        return out;
    }
}
