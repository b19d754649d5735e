package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {

    @TempDir
    Path dir;

    private String out;
    private String err;

    private int compare(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "compare";
        System.arraycopy(args, 0, all, 1, args.length);
        CliRun.Result r = CliRun.run(all);
        out = r.out();
        err = r.err();
        return r.code();
    }

    /** A run folder as eval writes it: two nq-open questions, the first right. */
    private Path run(String name, String method, String dataset, boolean judged) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        String judge = judged ? ", \"judge\": {\"name\": \"crag\", \"outcome\": \"UNPARSEABLE\"}" : "";
        Files.writeString(d.resolve("summary.json"), """
                {"method": "%s", "dataset": "%s", "n": 2, "metrics": {"nq-em": 0.5}, "metrics_n": {"nq-em": 2},
                 "calls_per_question": 1.5, "prompt_tokens_per_question": 100.0, "completion_tokens_per_question": 20.0,
                 "wall_ms_per_question": 1500.0, "critical_path_ms_per_question": 1500.0, "parse_failures": 1}
                """.formatted(method, dataset));
        Files.writeString(d.resolve("results.jsonl"), """
                {"id": "a", "prediction": "Paris", "gold": ["Paris"], "wrong": [], "metrics": {"nq-em": 1.0}, "calls": 1%s}
                {"id": "b", "prediction": "Milan", "gold": ["Rome"], "wrong": [], "metrics": {"nq-em": 0.0}, "calls": 2%s}
                """.formatted(judge, judge));
        return d;
    }

    @Test
    void printsOneRowPerRunWithIntervals() throws Exception {
        Path a = run("run-a", "no-rag", "nq-open", false);
        Path b = run("run-b", "cot-sc", "nq-open", true);
        assertThat(compare(a.toString(), b.toString())).isZero();
        List<String> lines = out.lines().toList();
        assertThat(lines.getFirst()).startsWith("Dataset nq-open").contains("1000 resamples").contains("seed");
        assertThat(lines.get(1)).contains("nq-em").contains("judge").contains("calls/q");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("run-a").contains("no-rag")
                .contains("0.500 [0.000, 1.000] n=2").contains("1.50").contains("120.0").contains("1.50"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("run-b").contains("n/a (0 of 2 parsed)"));
        assertThat(err).isEmpty();
    }

    @Test
    void otherFormatsAndResamples() throws Exception {
        Path a = run("run-a", "no-rag", "nq-open", false);
        Path b = run("run-b", "standard-rag", "ramdocs", false);
        assertThat(compare("--format", "csv", a.toString(), b.toString())).isZero();
        List<String> csv = out.lines().toList();
        assertThat(csv).hasSize(3);
        assertThat(csv.getFirst()).startsWith("dataset,run,method,model,retrieval,questions,nq-em,nq-em.lo,nq-em.hi,nq-em.n");
        assertThat(csv.get(2)).startsWith("ramdocs,run-b,standard-rag,,,2,0.5,");

        assertThat(compare("--format", "markdown", a.toString(), b.toString())).isZero();
        assertThat(out).contains("### Dataset nq-open").contains("### Dataset ramdocs").contains("| --- | --- | ---: |");

        assertThat(compare("--format", "json", "--resamples", "200", a.toString())).isZero();
        JsonNode json = new ObjectMapper().readTree(out);
        assertThat(json.at("/bootstrap/resamples").asInt()).isEqualTo(200);
        assertThat(json.at("/tables/0/rows/0/metrics/nq-em/n").asInt()).isEqualTo(2);

        assertThat(compare("--format", "xml", a.toString())).isEqualTo(2);
        assertThat(err.strip()).isEqualTo("veracity compare: --format must be text, csv, json or markdown, got 'xml'");
    }

    @Test
    void aMissingOrMalformedRunFolderIsOneLineAndExitTwo() throws Exception {
        Path a = run("run-a", "no-rag", "nq-open", false);
        Path missing = dir.resolve("nowhere");
        assertThat(compare(a.toString(), missing.toString())).isEqualTo(2);
        assertThat(err.lines().toList()).hasSize(1);
        assertThat(err).startsWith("veracity compare: ").contains(missing.toString()).doesNotContain("Exception");
        assertThat(out).isEmpty();

        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("summary.json"), "{\"method\": ");
        assertThat(compare(bad.toString())).isEqualTo(2);
        assertThat(err.lines().toList()).hasSize(1);
        assertThat(err).contains(bad.toString()).doesNotContain("\tat ");

        Path noSummary = Files.createDirectories(dir.resolve("empty"));
        assertThat(compare(noSummary.toString())).isEqualTo(2);
        assertThat(err.lines().toList()).hasSize(1);
        assertThat(err).contains(noSummary.toString());
    }

    /** A run over 40 questions: the first {@code right} answered right. */
    private Path scored(String name, String method, int right, int offset) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.writeString(d.resolve("summary.json"), """
                {"method": "%s", "dataset": "nq-open", "n": 40, "metrics": {"nq-em": 0.5}, "metrics_n": {"nq-em": 40}}
                """.formatted(method));
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            boolean ok = i >= offset && i < offset + right;
            lines.append("{\"id\": \"q").append(i).append("\", \"prediction\": \"").append(ok ? "Paris" : "Lyon")
                    .append("\", \"gold\": [\"Paris\"], \"metrics\": {}}\n");
        }
        Files.writeString(d.resolve("results.jsonl"), lines);
        return d;
    }

    @Test
    void aBaselineGivesPairedDifferencesWithIntervalsPValuesAndTheQuestionsThatDiffer() throws Exception {
        Path base = scored("base", "no-rag", 10, 0);       // q0..q9 right
        Path same = scored("same", "no-rag", 10, 0);       // identical answers
        Path better = scored("better", "standard-rag", 30, 0); // q0..q29 right: +20 questions, none worse
        Path shifted = scored("shifted", "cot", 10, 5);    // q5..q14 right: 5 better, 5 worse
        assertThat(compare(base.toString(), same.toString(), better.toString(), shifted.toString(), "--baseline",
                base.toString())).as(err).isZero();
        String paired = out.substring(out.indexOf("Paired differences against base"));
        // one row per run: difference, interval, p, test, n, questions better, questions worse
        assertThat(paired.lines().skip(1).filter(l -> l.strip().startsWith("run ")).findFirst().orElseThrow())
                .contains("difference", "95% CI", "p", "test", "n", "better", "worse");
        String sameLine = paired.lines().filter(l -> l.strip().startsWith("same ")).findFirst().orElseThrow();
        assertThat(sameLine).contains("+0.000").contains("[+0.000, +0.000]").contains("p=1.000").matches(".*\\s40\\s+0\\s+0$");
        String betterLine = paired.lines().filter(l -> l.strip().startsWith("better ")).findFirst().orElseThrow();
        // 20 better, none worse: exact McNemar, 2 / 2^20, printed as below 0.001, never as 0
        assertThat(betterLine).contains("+0.500").contains("p<0.001").doesNotContain("p=0.000")
                .contains("exact McNemar").matches(".*\\s40\\s+20\\s+0$");
        // the questions that differ, under the table; a run with none better or worse lists none
        assertThat(paired.lines().filter(l -> l.strip().startsWith("better, nq-em: e.g.")).findFirst().orElseThrow())
                .contains("better on q10, q11").doesNotContain("worse on");
        assertThat(paired.lines().filter(l -> l.strip().startsWith("same, "))).isEmpty();
        String shiftedLine = paired.lines().filter(l -> l.strip().startsWith("shifted ")).findFirst().orElseThrow();
        assertThat(shiftedLine).contains("+0.000").matches(".*\\s5\\s+5$");
        double p = Double.parseDouble(shiftedLine.replaceAll(".*p=([0-9.]+).*", "$1"));
        assertThat(p).isGreaterThan(0.5); // no real difference
        // the baseline itself gets no line
        assertThat(paired.lines().filter(l -> l.strip().startsWith("base "))).isEmpty();
    }

    @Test
    void fiveBetterAndOneWorseOnAZeroOneMetricIsTheExactMcNemarP() throws Exception {
        Path base = scored("base", "no-rag", 10, 0);   // q0..q9 right
        Path run = scored("run", "cot", 10, 4);        // q4..q13 right: q10..q13 better, q0..q3 worse
        Path five = Files.createDirectories(dir.resolve("five"));
        Files.writeString(five.resolve("summary.json"), """
                {"method": "cot-sc", "dataset": "nq-open", "n": 40, "metrics": {"nq-em": 0.35}, "metrics_n": {"nq-em": 40}}
                """);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            boolean ok = i < 9 || (i >= 10 && i < 15); // q9 worse, q10..q14 better
            lines.append("{\"id\": \"q").append(i).append("\", \"prediction\": \"").append(ok ? "Paris" : "Lyon")
                    .append("\", \"gold\": [\"Paris\"], \"metrics\": {}}\n");
        }
        Files.writeString(five.resolve("results.jsonl"), lines);
        assertThat(compare(five.toString(), run.toString(), "--baseline", base.toString())).as(err).isZero();
        String line = out.lines().filter(l -> l.startsWith("  five ")).findFirst().orElseThrow();
        // 2 x P(X <= 1) for X ~ Bin(6, 1/2) = 0.219 (the paired bootstrap said 0.118)
        assertThat(line).matches(".*\\s5\\s+1$").contains("p=0.219").contains("exact McNemar"); // 5 better, 1 worse
    }

    @Test
    void withABaselineJsonAndCsvAreEachOneValidDocument() throws Exception {
        Path base = scored("base", "no-rag", 10, 0);
        Path better = scored("better", "standard-rag", 30, 0);
        assertThat(compare("--format", "json", better.toString(), "--baseline", base.toString())).as(err).isZero();
        JsonNode json = new ObjectMapper().readTree(out); // the whole output: one JSON document
        assertThat(new ObjectMapper().readTree(out).toString()).isEqualTo(json.toString());
        assertThat(json.at("/paired/baseline").asText()).isEqualTo("base");
        assertThat(json.at("/paired/differences/0/run").asText()).isEqualTo("better");
        assertThat(json.at("/paired/differences/0/better").asInt()).isEqualTo(20);
        assertThat(json.at("/paired/differences/0/p_display").asText()).isEqualTo("p<0.001");
        assertThat(json.at("/paired/differences/0/p").asDouble()).isPositive();
        assertThat(out.strip()).startsWith("{").endsWith("}");

        assertThat(compare("--format", "csv", better.toString(), "--baseline", base.toString())).as(err).isZero();
        List<String> csv = out.lines().toList();
        assertThat(csv).hasSize(2); // the header and the run's row: no second block
        assertThat(csv.getFirst()).contains("baseline,nq-em.diff,nq-em.diff.lo,nq-em.diff.hi,nq-em.p,nq-em.p_test,nq-em.better,nq-em.worse");
        assertThat(csv.get(1).split(",", -1)).hasSameSizeAs(csv.getFirst().split(",", -1));
        assertThat(csv.get(1)).contains(",base,0.5,").contains(",mcnemar-exact,20,0");
    }

    @Test
    void failedQuestionsAreListedUnderTheTable() throws Exception {
        Path a = run("run-a", "no-rag", "nq-open", false);
        Files.writeString(a.resolve("results.jsonl"), Files.readString(a.resolve("results.jsonl"))
                + "{\"id\": \"c\", \"question\": \"capital of peru\", \"failed\": \"gave up after 5 attempts\","
                + " \"failed_kind\": \"SERVER_ERROR\"}\n");
        assertThat(compare(a.toString())).isZero();
        assertThat(out).contains("Failed questions").contains("run-a: 1 failed")
                .contains("c  capital of peru  SERVER_ERROR: gave up after 5 attempts");
    }
}
