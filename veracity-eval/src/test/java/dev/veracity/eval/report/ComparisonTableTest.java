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
        assertThat(lines.get(1)).contains("run").contains("strict-multi").contains("f1").contains("calls/q")
                .contains("tokens/q").contains("s/q").contains("parse failures").doesNotContain("precision");
        assertThat(lines.get(2)).matches("-+");
        assertThat(lines).hasSize(5);
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
        assertThat(h).startsWith("dataset", "run", "method", "questions", "strict-multi", "strict-multi.lo",
                "strict-multi.hi", "strict-multi.n", "f1");
        assertThat(h).contains("calls_per_question", "tokens_per_question", "seconds_per_question", "parse_failures",
                "bootstrap_resamples", "bootstrap_seed");
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
        assertThat(md.get(header + 1)).startsWith("| --- | --- | ---: |").endsWith("|");
        assertThat(md.get(header + 1).chars().filter(c -> c == '|').count())
                .isEqualTo(md.get(header).chars().filter(c -> c == '|').count());
        assertThat(md).anyMatch(l -> l.startsWith("| standard,1 | standard-rag | 3 | 0.333 ["));

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
