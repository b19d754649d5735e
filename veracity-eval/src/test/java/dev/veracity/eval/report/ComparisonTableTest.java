package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonTableTest {

    private static final String METRICS = "{\"strict-multi\": 0.3333, \"strict-multi.precision\": 0.5, \"f1\": 0.4}";

    @TempDir
    Path dir;

    private ComparisonTable twoRuns() throws Exception {
        Path a = ReportFixtures.run(dir, "standard,1", "standard-rag", METRICS, false);
        Path b = ReportFixtures.run(dir, "madam", "madam-rag", METRICS, false);
        return ComparisonTable.of(ComparisonTable.load(List.of(a, b)));
    }

    @Test
    void textHasOneRowPerRunWithIntervalsAndSaysHowTheyWereComputed() throws Exception {
        String text = twoRuns().text();
        List<String> lines = text.lines().toList();
        assertThat(lines.getFirst()).startsWith("Dataset ramdocs").contains("percentile bootstrap")
                .contains("1000 resamples").contains("seed " + Bootstrap.DEFAULT_SEED);
        assertThat(lines.get(1)).contains("run").contains("model").contains("retrieval").contains("strict-multi")
                .contains("f1").contains("calls/q").contains("samples/q").contains("tokens/q").contains("cached")
                .contains("wall s/q").contains("model s/q").contains("parse failures").contains("failed")
                .doesNotContain("precision");
        assertThat(lines.get(2)).matches("-+");
        assertThat(lines).hasSize(6);
        // what the cost columns count, said once under the table
        assertThat(lines.get(5)).startsWith("calls/q: requests to the model per question").contains("samples/q")
                .contains("Table 4").contains("wall s/q").contains("model s/q");
        // q1 wrong, q2 right, q3 empty: 1/3 over the three parsed lines (the truncated one is skipped)
        assertThat(lines.get(3)).startsWith("standard,1").contains("standard-rag").contains("0.333 [0.000, 1.000] n=3")
                .contains("1.00").contains("908.3").contains("0.23");
        assertThat(lines.get(4)).startsWith("madam").contains("madam-rag").contains("4.50");
        // aligned: every row as long as the rule
        assertThat(lines.get(3).length()).isLessThanOrEqualTo(lines.get(2).length());
        // aligned: the last column is right-aligned, so header and rows end at the same place
        assertThat(lines.get(3)).hasSameSizeAs(lines.get(1)).hasSameSizeAs(lines.get(4)).hasSameSizeAs(lines.get(2));
    }

    @Test
    void csvParsesBackToTheSameCells() throws Exception {
        List<List<String>> rows = parseCsv(twoRuns().csv());
        assertThat(rows).hasSize(3);
        List<String> h = rows.getFirst();
        assertThat(h).startsWith("dataset", "run", "method", "model", "retrieval", "questions", "strict-multi",
                "strict-multi.lo", "strict-multi.hi", "strict-multi.n", "f1");
        assertThat(h).contains("model", "retrieval", "calls_per_question", "samples_per_question", "tokens_per_question",
                "cached_share", "wall_seconds_per_question", "model_seconds_per_question", "questions_at_once",
                "parse_failures", "failed", "bootstrap_resamples", "bootstrap_seed");
        for (List<String> r : rows) {
            assertThat(r).hasSameSizeAs(h);
        }
        List<String> first = rows.get(1);
        assertThat(first.get(h.indexOf("run"))).isEqualTo("standard,1");
        assertThat(Double.parseDouble(first.get(h.indexOf("strict-multi")))).isEqualTo(1.0 / 3);
        assertThat(first.get(h.indexOf("strict-multi.n"))).isEqualTo("3");
        assertThat(Double.parseDouble(first.get(h.indexOf("strict-multi.lo")))).isLessThanOrEqualTo(1.0 / 3);
        assertThat(first.get(h.indexOf("bootstrap_resamples"))).isEqualTo("1000");
    }

    @Test
    void markdownHasAHeaderSeparatorAndJsonParses() throws Exception {
        ComparisonTable t = twoRuns();
        List<String> md = t.markdown().lines().toList();
        assertThat(md.getFirst()).isEqualTo("### Dataset ramdocs");
        int header = md.indexOf(md.stream().filter(l -> l.startsWith("| run |")).findFirst().orElseThrow());
        assertThat(md.get(header + 1)).startsWith("| --- | --- | --- | --- | ---: |").endsWith("|");
        assertThat(md.get(header + 1).chars().filter(c -> c == '|').count())
                .isEqualTo(md.get(header).chars().filter(c -> c == '|').count());
        assertThat(md).anyMatch(l -> l.startsWith("| standard,1 | standard-rag | m | - | 3 | 0.333 ["));

        JsonNode json = new ObjectMapper().readTree(t.json());
        assertThat(json.at("/bootstrap/resamples").asInt()).isEqualTo(1000);
        assertThat(json.at("/tables/0/dataset").asText()).isEqualTo("ramdocs");
        assertThat(json.at("/tables/0/rows/1/metrics/strict-multi/n").asInt()).isEqualTo(3);
        assertThat(json.at("/tables/0/rows/1/metrics/strict-multi/value").asDouble()).isEqualTo(1.0 / 3);
    }

    @Test
    void aMetricOverNoQuestionAndAJudgeWithNoParsedVerdictAreNotApplicable() throws Exception {
        Path run = Files.createDirectories(dir.resolve("empty-judged"));
        Files.writeString(run.resolve("summary.json"), """
                {"method": "no-rag", "dataset": "crag", "n": 2, "metrics": {"truthfulness": null, "em": 0.5},
                 "metrics_n": {"truthfulness": 0, "em": 2},
                 "judge": {"name": "crag", "accuracy": null, "n": 2, "parsed": 0, "correct": 0, "incorrect": 0, "unparseable": 2},
                 "calls_per_question": 2.0, "parse_failures": 0}
                """);
        Files.writeString(run.resolve("results.jsonl"), """
                {"id": "a", "metrics": {"em": 1.0}, "judge": {"name": "crag", "outcome": "UNPARSEABLE"}}
                {"id": "b", "metrics": {"em": 0.0}, "judge": {"name": "crag", "outcome": "UNPARSEABLE"}}
                """);
        ComparisonTable t = ComparisonTable.of(ComparisonTable.load(List.of(run)));
        String text = t.text();
        assertThat(text).contains("n/a (0 of 2 parsed)").contains("0.500 [0.000, 1.000] n=2");
        String row = text.lines().filter(l -> l.startsWith("empty-judged")).findFirst().orElseThrow();
        assertThat(row).contains("  n/a  ").doesNotContain("0.000 n=0").doesNotContain("accuracy");
        JsonNode json = new ObjectMapper().readTree(t.json());
        assertThat(json.at("/tables/0/rows/0/metrics/truthfulness/value").isNull()).isTrue();
        assertThat(json.at("/tables/0/rows/0/metrics/truthfulness/n").asInt()).isZero();
        assertThat(json.at("/tables/0/rows/0/judge/value").isNull()).isTrue();
        assertThat(json.at("/tables/0/rows/0/judge/parsed").asInt()).isZero();
        assertThat(json.at("/tables/0/rows/0/judge/n").asInt()).isEqualTo(2);
        List<List<String>> csv = parseCsv(t.csv());
        assertThat(csv.get(1).get(csv.getFirst().indexOf("truthfulness"))).isEmpty();
        assertThat(csv.get(1).get(csv.getFirst().indexOf("judge"))).isEmpty();
        assertThat(csv.get(1).get(csv.getFirst().indexOf("judge.n"))).isEqualTo("2");
    }

    @Test
    void crAgComparisonQuestionsGetTheirOwnRowTheHallucinationBaitingSubset() throws Exception {
        Path run = Files.createDirectories(dir.resolve("crag-run"));
        Files.writeString(run.resolve("summary.json"), """
                {"method": "truthrl", "dataset": "crag", "n": 4, "metrics": {"truthfulness-answer": 0.25},
                 "metrics_n": {"truthfulness-answer": 4}, "calls_per_question": 1.0, "parse_failures": 0}
                """);
        Files.writeString(run.resolve("results.jsonl"), """
                {"id": "a", "question_type": "simple", "prediction": "Paris", "gold": ["Paris"], "metrics": {"truthfulness-answer": 1.0}, "calls": 1}
                {"id": "b", "question_type": "comparison", "prediction": "I don't know", "gold": ["a"], "metrics": {"truthfulness-answer": 0.0}, "calls": 1}
                {"id": "c", "question_type": "comparison", "prediction": "b", "gold": ["a"], "metrics": {"truthfulness-answer": -1.0}, "calls": 1}
                {"id": "d", "question_type": "simple", "prediction": "Rome", "gold": ["Rome"], "metrics": {"truthfulness-answer": 1.0}, "calls": 1}
                """);
        ComparisonTable t = ComparisonTable.of(ComparisonTable.load(List.of(run)));
        JsonNode json = new ObjectMapper().readTree(t.json());
        assertThat(json.at("/tables/0/rows/0/metrics/truthfulness-answer/value").asDouble()).isEqualTo(0.25);
        assertThat(json.at("/tables/0/rows/1/run").asText()).isEqualTo("crag-run [comparison: hallucination-baiting]");
        assertThat(json.at("/tables/0/rows/1/questions").asInt()).isEqualTo(2);
        // re-scored over the two comparison questions only: one abstention (0), one hallucination (-1)
        assertThat(json.at("/tables/0/rows/1/metrics/truthfulness-answer/value").asDouble()).isEqualTo(-0.5);
        assertThat(json.at("/tables/0/rows/1/metrics/truthfulness-answer/n").asInt()).isEqualTo(2);
        assertThat(t.text()).contains("crag-run [comparison: hallucination-baiting]");
    }

    @Test
    void atEightyColumnsNoLineOfTheTextIsLongerAndTheCragTableKeepsItsRowsWhole() throws Exception {
        Path run = Files.createDirectories(dir.resolve("crag-run"));
        Files.writeString(run.resolve("summary.json"), """
                {"method": "truthrl", "dataset": "crag", "n": 4, "metrics": {"truthfulness-answer": 0.25, "em": 0.5},
                 "metrics_n": {"truthfulness-answer": 4, "em": 4}, "calls_per_question": 1.0, "parse_failures": 0}
                """);
        Files.writeString(run.resolve("results.jsonl"), """
                {"id": "a", "question_type": "simple", "prediction": "Paris", "gold": ["Paris"], "metrics": {"truthfulness-answer": 1.0, "em": 1.0}, "calls": 1}
                {"id": "b", "question_type": "comparison", "prediction": "I don't know", "gold": ["a"], "metrics": {"truthfulness-answer": 0.0, "em": 0.0}, "calls": 1}
                {"id": "c", "question_type": "comparison", "prediction": "b", "gold": ["a"], "metrics": {"truthfulness-answer": -1.0, "em": 0.0}, "calls": 1}
                {"id": "d", "question_type": "simple", "prediction": "Rome", "gold": ["Rome"], "metrics": {"truthfulness-answer": 1.0, "em": 1.0}, "calls": 1}
                """);
        Path a = ReportFixtures.run(dir, "standard,1", "standard-rag", METRICS, false);
        Path b = ReportFixtures.run(dir, "madam", "madam-rag", METRICS, false);
        List<RunDir> runs = ComparisonTable.load(List.of(a, b, run));
        ComparisonTable t = ComparisonTable.of(runs, 200, 7, runs.getFirst());
        String wide = t.text();
        assertThat(wide.lines().mapToInt(String::length).max().orElseThrow()).isGreaterThan(120); // as today
        String text = t.text(80);
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        List<String> lines = text.lines().toList();
        // the CRAG rows are whole lines: the run, its method and both metrics with their intervals
        String crag = lines.stream().filter(l -> l.startsWith("crag-run ")).findFirst().orElseThrow();
        assertThat(crag).contains("truthrl", "0.250 [", "0.500 [");
        String subset = lines.stream().filter(l -> l.startsWith("crag-run [comparison]")).findFirst().orElseThrow();
        assertThat(subset).contains("truthrl", "-0.500 [");
        // what was left out is said, with where to see it
        assertThat(text).contains("Columns not shown at 80 characters:").contains("--format csv");
        assertThat(text).contains("Paired differences against standard,1");
        // a wider terminal shows more columns
        String at160 = t.text(160);
        assertThat(at160.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(160));
        String header80 = lines.stream().filter(l -> l.startsWith("run ")).findFirst().orElseThrow();
        String header160 = at160.lines().filter(l -> l.startsWith("run ")).findFirst().orElseThrow();
        assertThat(header160.split("\\s{2,}").length).isGreaterThan(header80.split("\\s{2,}").length);
        assertThat(header160).contains("calls/q", "parse failures", "failed");
    }

    @Test
    void aMethodColumnThatRepeatsTheRunsNamesIsTheFirstToGoWhereItIsNarrow() throws Exception {
        // the demo's runs are named by their method: the column would spend the width the costs need
        Path a = ReportFixtures.run(dir, "standard-rag", "standard-rag", METRICS, false);
        Path b = ReportFixtures.run(dir, "madam-rag", "madam-rag", METRICS, false);
        List<RunDir> runs = ComparisonTable.load(List.of(a, b));
        String header = header(ComparisonTable.of(runs, 200, 7, null).text(80));
        assertThat(header).doesNotContain("method").contains("failed");
        assertThat(header(ComparisonTable.of(runs, 200, 7, null).text(400))).contains("method");
        // runs named otherwise keep it
        Path c = ReportFixtures.run(dir, "baseline", "standard-rag", METRICS, false);
        assertThat(header(ComparisonTable.of(ComparisonTable.load(List.of(c, b)), 200, 7, null).text(80))).contains("method");
    }

    private static String header(String text) {
        return text.lines().filter(l -> l.startsWith("run ")).findFirst().orElseThrow();
    }

    @Test
    void theCompactTextIsTheTablesAloneForEvalsClosingLines() throws Exception {
        ComparisonTable t = twoRuns();
        String compact = t.compact(80);
        assertThat(compact.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
        assertThat(compact.lines().findFirst().orElseThrow()).startsWith("run ");
        assertThat(compact).contains("standard,1", "madam").doesNotContain("calls/q: requests", "Dataset ramdocs");
        assertThat(compact.lines().count()).isLessThan(10);
    }

    @Test
    void runsOfDifferentDatasetsGetOneTableEach() throws Exception {
        Path a = ReportFixtures.run(dir, "a", "standard-rag", METRICS, false);
        Path b = Files.createDirectories(dir.resolve("b"));
        Files.writeString(b.resolve("summary.json"), """
                {"method": "cot", "dataset": "hotpotqa", "n": 0, "metrics": {"em": null}, "metrics_n": {"em": 0}}
                """);
        String text = ComparisonTable.of(ComparisonTable.load(List.of(a, b))).text();
        assertThat(text).contains("Dataset ramdocs").contains("Dataset hotpotqa");
        String hotpot = text.substring(text.indexOf("Dataset hotpotqa"));
        assertThat(hotpot).doesNotContain("strict-multi").contains("em");
        assertThat(hotpot.lines().filter(l -> l.startsWith("b ")).findFirst().orElseThrow()).contains("n/a");
    }

    @Test
    void aMissingOrMalformedRunFolderIsNamed() throws Exception {
        Path missing = dir.resolve("nope");
        assertThatThrownBy(() -> ComparisonTable.load(List.of(missing)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(missing.toString());
        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("summary.json"), "{not json");
        assertThatThrownBy(() -> ComparisonTable.load(List.of(bad)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad.toString());
    }

    /** A run folder of one summary and result lines. */
    private Path folder(String path, String summary, String... lines) throws Exception {
        Path d = Files.createDirectories(dir.resolve(path));
        Files.writeString(d.resolve("summary.json"), summary);
        Files.writeString(d.resolve("results.jsonl"), String.join("\n", lines) + "\n");
        return d;
    }

    @Test
    void threeRunsOfOneDatasetAreToldApartByTheirFoldersModelAndRetrieval() throws Exception {
        String line = "{\"id\": \"a\", \"prediction\": \"Paris\", \"gold\": [\"Paris\"], \"metrics\": {}}";
        Path bm25 = folder("qwen/hotpotqa", """
                {"method": "standard-rag", "dataset": "hotpotqa", "model": "qwen-72b", "n": 1, "metrics": {"em": 1.0},
                 "retrieval": {"source": "index", "index": "/idx/wiki-bm25", "k": 5, "mode": "bm25"}}
                """, line);
        Path own = folder("llama/own/hotpotqa", """
                {"method": "standard-rag", "dataset": "hotpotqa", "model": "llama-70b", "n": 1, "metrics": {"em": 1.0},
                 "retrieval": {"source": "dataset"}}
                """, line);
        Path closed = folder("llama/closed/hotpotqa", """
                {"method": "no-rag", "dataset": "hotpotqa", "model": "llama-70b", "n": 1, "metrics": {"em": 1.0},
                 "retrieval": {"source": "none"}, "config": {"pages": "/p/hotpot-pages sha256=ab"}}
                """, line);
        ComparisonTable t = ComparisonTable.of(ComparisonTable.load(List.of(bm25, own, closed)));
        List<ComparisonTable.Row> rows = t.tables().getFirst().rows();
        assertThat(rows).extracting(ComparisonTable.Row::run)
                .containsExactly("qwen/hotpotqa", "own/hotpotqa", "closed/hotpotqa");
        assertThat(rows).extracting(ComparisonTable.Row::model).containsExactly("qwen-72b", "llama-70b", "llama-70b");
        assertThat(rows).extracting(ComparisonTable.Row::retrieval)
                .containsExactly("bm25 k=5 wiki-bm25", "dataset", "none + pages hotpot-pages");
        String text = t.text();
        assertThat(text).contains("qwen/hotpotqa").contains("llama-70b").contains("bm25 k=5 wiki-bm25");
        JsonNode json = new ObjectMapper().readTree(t.json());
        assertThat(json.at("/tables/0/rows/1/run").asText()).isEqualTo("own/hotpotqa");
        assertThat(json.at("/tables/0/rows/2/retrieval").asText()).isEqualTo("none + pages hotpot-pages");
    }

    @Test
    void requestsSamplesTokensTheCachedShareAndBothSecondsAreColumnsAndAnOldRunHasThemAsNotApplicable() throws Exception {
        Path now = folder("now", """
                {"method": "cot-sc", "dataset": "hotpotqa", "n": 1, "metrics": {"em": 1.0}, "calls_per_question": 2.0,
                 "samples_per_question": 22.0, "prompt_tokens_per_question": 300.0, "completion_tokens_per_question": 700.0,
                 "cached_share": 1.0, "wall_ms_per_question": 12.0, "model_ms_per_question": 4321.0, "questions_at_once": 4}
                """, "{\"id\": \"a\", \"prediction\": \"x\", \"gold\": [\"x\"], \"metrics\": {}}");
        Path old = ReportFixtures.run(dir, "old", "standard-rag", METRICS, false);
        ComparisonTable t = ComparisonTable.of(ComparisonTable.load(List.of(now, old)));
        ComparisonTable.Row a = t.tables().getFirst().rows().getFirst();
        assertThat(a.callsPerQuestion()).isEqualTo(2.0);
        assertThat(a.samplesPerQuestion()).isEqualTo(22.0);
        assertThat(a.tokensPerQuestion()).isEqualTo(1000.0);
        assertThat(a.cachedShare()).isEqualTo(1.0);
        assertThat(a.wallSecondsPerQuestion()).isEqualTo(0.012);
        assertThat(a.modelSecondsPerQuestion()).isEqualTo(4.321);
        String row = t.text().lines().filter(l -> l.startsWith("now ")).findFirst().orElseThrow();
        assertThat(row).contains("  2.00  ").contains("  22.00  ").contains("  1000.0  ").contains("  100%  ")
                .contains("  0.01  ").contains("  4.32  ");
        // the old run does not say how many questions it answered at once: the legend does not speak for it
        assertThat(t.text()).contains("(4 at once in the runs that say; run old does not say)")
                .doesNotContain("4 at once in these runs");
        // a run written before samples, the cache share and model time: n/a, never 0
        String oldRow = t.text().lines().filter(l -> l.startsWith("old ")).findFirst().orElseThrow();
        ComparisonTable.Row b = t.tables().get(1).rows().getFirst();
        assertThat(b.samplesPerQuestion()).isNull();
        assertThat(b.cachedShare()).isNull();
        assertThat(b.modelSecondsPerQuestion()).isNull();
        assertThat(oldRow.split("\\s+")).contains("n/a");
        JsonNode json = new ObjectMapper().readTree(t.json());
        assertThat(json.at("/tables/1/rows/0/samples_per_question").isNull()).isTrue();
        assertThat(json.at("/tables/0/rows/0/samples_per_question").asDouble()).isEqualTo(22.0);
        assertThat(json.at("/tables/0/rows/0/cached_share").asDouble()).isEqualTo(1.0);
        assertThat(json.at("/legend").asText()).contains("samples/q");
    }

    @Test
    void theLegendSaysModelTimeKeepsTheServersQueueing() throws Exception {
        // model s/q leaves out our client's queue, not a server's: one that queues grows it with the questions at once
        Path now = folder("now", """
                {"method": "no-rag", "dataset": "nq-open", "n": 1, "metrics": {"nq-em": 1.0},
                 "model_ms_per_question": 70.0, "questions_at_once": 8}
                """, "{\"id\": \"a\", \"prediction\": \"x\", \"gold\": [\"x\"], \"metrics\": {}}");
        String legend = ComparisonTable.of(ComparisonTable.load(List.of(now))).legend();
        assertThat(legend).contains("model s/q: ").contains("leaves out our client's queueing but not the server's")
                .contains("grows with the questions at once where the server queues requests")
                .doesNotContain("at any questions at once");
    }

    @Test
    void failedQuestionsAreCountedAndListedWithTheirReasonsInEveryFormat() throws Exception {
        Path run = folder("flaky", """
                {"method": "no-rag", "dataset": "nq-open", "n": 1, "metrics": {"nq-em": 1.0}, "failed": 2}
                """,
                "{\"id\": \"a\", \"prediction\": \"Paris\", \"gold\": [\"Paris\"], \"metrics\": {}}",
                "{\"id\": \"q7\", \"question\": \"capital of peru\", \"failed\": \"SERVER_ERROR after 5 attempts: HTTP 503\","
                        + " \"failed_kind\": \"SERVER_ERROR\"}",
                "{\"id\": \"q8\", \"question\": \"capital of chile\", \"failed\": \"timed out\", \"failed_kind\": \"TIMEOUT\"}");
        ComparisonTable t = ComparisonTable.of(ComparisonTable.load(List.of(run)));
        assertThat(t.tables().getFirst().rows().getFirst().failed()).isEqualTo(2);
        String text = t.text();
        assertThat(text).contains("Failed questions").contains("flaky: 2 failed")
                .contains("q7  capital of peru  SERVER_ERROR: SERVER_ERROR after 5 attempts: HTTP 503")
                .contains("q8  capital of chile  TIMEOUT: timed out");
        JsonNode json = new ObjectMapper().readTree(t.json());
        assertThat(json.at("/tables/0/rows/0/failed").asInt()).isEqualTo(2);
        assertThat(json.at("/tables/0/rows/0/failures/0/id").asText()).isEqualTo("q7");
        assertThat(json.at("/tables/0/rows/0/failures/1/kind").asText()).isEqualTo("TIMEOUT");
        List<List<String>> csv = parseCsv(t.csv());
        assertThat(csv.get(1).get(csv.getFirst().indexOf("failed"))).isEqualTo("2");
        assertThat(t.markdown()).contains("### Failed questions").contains("q7");
    }

    @Test
    void withABaselineEveryFormatIsOneDocumentHoldingThePairedDifferences() throws Exception {
        Path a = ReportFixtures.run(dir, "a", "standard-rag", METRICS, false);
        Path b = ReportFixtures.run(dir, "b", "madam-rag", METRICS, false);
        List<RunDir> runs = ComparisonTable.load(List.of(a, b));
        ComparisonTable t = ComparisonTable.of(runs, 200, 7, runs.getFirst());
        JsonNode json = new ObjectMapper().readTree(t.json());
        assertThat(json.at("/paired/baseline").asText()).isEqualTo("a");
        assertThat(json.at("/paired/differences/0/run").asText()).isEqualTo("b");
        assertThat(json.at("/paired/differences/0/test").asText()).isEqualTo("mcnemar-exact");
        assertThat(json.at("/paired/differences/0/p").asDouble()).isEqualTo(1.0);
        List<List<String>> csv = parseCsv(t.csv());
        List<String> h = csv.getFirst();
        assertThat(h).contains("baseline", "strict-multi.diff", "strict-multi.p", "strict-multi.p_test", "f1.diff");
        assertThat(csv).hasSize(3).allSatisfy(r -> assertThat(r).hasSameSizeAs(h));
        assertThat(csv.get(1).get(h.indexOf("strict-multi.diff"))).isEmpty(); // the baseline's own row
        assertThat(csv.get(2).get(h.indexOf("strict-multi.p_test"))).isEqualTo("mcnemar-exact");
        assertThat(t.markdown()).contains("### Paired differences against a");
        assertThat(t.text()).contains("Paired differences against a");
    }

    /** RFC 4180 with quoted fields. */
    static List<List<String>> parseCsv(String s) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < s.length() && s.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    f.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(f.toString());
                f.setLength(0);
            } else if (c == '\r') {
                // part of the line end
            } else if (c == '\n') {
                row.add(f.toString());
                f.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
            } else {
                f.append(c);
            }
        }
        return rows;
    }
}
