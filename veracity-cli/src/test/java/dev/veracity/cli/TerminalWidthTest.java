package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line at the terminal's width, as a user's shell starts it: each command in its own JVM with
 * {@code COLUMNS} set, its standard output and error read back. At 80 columns no line of {@code methods},
 * {@code eval}, {@code compare} and {@code report} (their help, and their real output on a scripted run on the
 * simulator: eval's progress and closing table, a comparison with paired differences, a CRAG table, the report's
 * messages) is longer; at a wider terminal the comparison shows more columns. eval ends with its row of the
 * comparison table, and {@code --json} prints its summary.json instead.
 */
class TerminalWidthTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static SimServer sim;
    private static Path runA;
    private static Path runB;
    private static Path crag;

    record Run(int code, String out, String err) {
        List<String> lines() {
            List<String> all = new ArrayList<>(out.lines().toList());
            all.addAll(err.lines().toList());
            return all;
        }
    }

    private static Run veracity(int columns, String... args) throws Exception {
        return veracity(columns, List.of(), args);
    }

    /** As the launcher runs it, with these JVM options (the launcher's {@code -Dveracity.stderr.tty}). */
    private static Run veracity(int columns, List<String> jvm, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.veracity.cli.VeracityCli"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        Map<String, String> env = pb.environment();
        env.put("COLUMNS", String.valueOf(columns));
        env.remove("VERACITY_LLM_BASE_URL");
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(String.join(" ", args)).isTrue();
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void fits(Run r, int columns, String what) {
        assertThat(r.lines()).as(what).allSatisfy(l -> assertThat(l.length()).as(what + ": " + l)
                .isLessThanOrEqualTo(columns));
        assertThat(r.err()).as(what).doesNotContain("\r");
    }

    private static Run eval(String method, Path out, String... extra) throws Exception {
        return eval(List.of(), method, out, extra);
    }

    private static Run eval(List<String> jvm, String method, Path out, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("eval", "--method", method, "--dataset", "nq-open", "--data",
                dir.resolve("nq.jsonl").toString(), "--out", out.toString(), "--llm-base-url", sim.baseUrl(), "--model",
                "sim-model", "--cache", "off", "--no-preflight"));
        args.addAll(List.of(extra));
        return veracity(80, jvm, args.toArray(String[]::new));
    }

    @BeforeAll
    static void runs() throws Exception {
        sim = SimServer.start(SimConfig.builder().build());
        StringBuilder nq = new StringBuilder();
        String[][] qa = {{"capital of france", "Paris"}, {"capital of italy", "Rome"}, {"capital of spain", "Madrid"},
                {"capital of germany", "Berlin"}, {"capital of austria", "Vienna"}, {"capital of norway", "Oslo"}};
        for (String[] q : qa) {
            nq.append("{\"question\": \"").append(q[0]).append("\", \"answer\": [\"").append(q[1]).append("\"]}\n");
        }
        Files.writeString(dir.resolve("nq.jsonl"), nq);
        runA = dir.resolve("runs/no-rag-with-a-long-folder-name");
        runB = dir.resolve("runs/cot-with-an-even-longer-folder-name-than-that");
        Run a = eval("no-rag", runA);
        assertThat(a.code()).as(a.err()).isZero();
        Run b = eval("cot", runB);
        assertThat(b.code()).as(b.err()).isZero();
        // a CRAG run with comparison questions (the hallucination-baiting subset gets its own row)
        crag = Files.createDirectories(dir.resolve("runs/truthrl-on-crag"));
        Files.writeString(crag.resolve("summary.json"), """
                {"method": "truthrl", "dataset": "crag", "model": "sim-model", "n": 4,
                 "metrics": {"truthfulness-answer": 0.25, "em": 0.5}, "metrics_n": {"truthfulness-answer": 4, "em": 4},
                 "calls_per_question": 1.0, "parse_failures": 0}
                """);
        Files.writeString(crag.resolve("results.jsonl"), """
                {"id": "a", "question_type": "simple", "prediction": "Paris", "gold": ["Paris"], "metrics": {"truthfulness-answer": 1.0, "em": 1.0}, "calls": 1}
                {"id": "b", "question_type": "comparison", "prediction": "I don't know", "gold": ["a"], "metrics": {"truthfulness-answer": 0.0, "em": 0.0}, "calls": 1}
                {"id": "c", "question_type": "comparison", "prediction": "b", "gold": ["a"], "metrics": {"truthfulness-answer": -1.0, "em": 0.0}, "calls": 1}
                {"id": "d", "question_type": "simple", "prediction": "Rome", "gold": ["Rome"], "metrics": {"truthfulness-answer": 1.0, "em": 1.0}, "calls": 1}
                """);
    }

    @org.junit.jupiter.api.AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void helpOfMethodsEvalCompareAndReportFitsEightyColumns() throws Exception {
        for (String command : List.of("methods", "eval", "compare", "report")) {
            Run r = veracity(80, command, "--help");
            assertThat(r.code()).isZero();
            fits(r, 80, command + " --help");
        }
    }

    /** Under picocli's least help width (55): every command still runs, its help is drawn at 55, no stack trace. */
    @Test
    void aTerminalOfFiftyColumnsRunsEveryCommandAndPrintsItsHelp() throws Exception {
        Run methods = veracity(50, "methods");
        assertThat(methods.code()).as(methods.err()).isZero();
        fits(methods, 50, "methods at 50");
        for (String command : List.of("eval", "compare")) {
            Run help = veracity(50, command, "--help");
            assertThat(help.code()).as(help.err()).isZero();
            assertThat(help.out()).contains("Usage: veracity " + command);
            assertThat(help.err()).doesNotContain("Exception").doesNotContain("\tat ");
            fits(help, VeracityCli.MIN_HELP_COLUMNS, command + " --help at 50");
        }
    }

    /**
     * Standard error as the launcher found it: {@code -Dveracity.stderr.tty=1} (a terminal) draws the bar, redrawn in
     * place within the width, though the JVM's stdout is a file; {@code =0} ({@code eval ... 2>log}) prints lines.
     */
    @Test
    void theLaunchersStderrPropertyChoosesTheBarOrLines() throws Exception {
        Run bar = eval(List.of("-D" + Terminal.STDERR_TTY + "=1"), "no-rag", dir.resolve("runs/bar"));
        assertThat(bar.code()).as(bar.err()).isZero();
        assertThat(bar.err()).contains("\r");
        for (String frame : bar.err().split("[\r\n]")) {
            assertThat(frame.length()).as(frame).isLessThanOrEqualTo(80);
        }
        Run lines = eval(List.of("-D" + Terminal.STDERR_TTY + "=0"), "no-rag", dir.resolve("runs/lines"));
        assertThat(lines.code()).as(lines.err()).isZero();
        fits(lines, 80, "eval 2>log");
        assertThat(lines.err()).contains("no-rag on nq-open: 6 questions in");
    }

    @Test
    void methodsFitsEightyColumnsAndAWiderTerminalTakesLongerLines() throws Exception {
        Run narrow = veracity(80, "methods");
        assertThat(narrow.code()).isZero();
        fits(narrow, 80, "methods");
        assertThat(narrow.out()).contains("k=21", "implements: MARCH, Section 2");
        Run wide = veracity(200, "methods");
        assertThat(wide.out().lines().mapToInt(String::length).max().orElseThrow()).isGreaterThan(80);
        assertThat(wide.out().lines().count()).isLessThan(narrow.out().lines().count());
    }

    @Test
    void evalEndsWithItsRowOfTheComparisonTableAndJsonPrintsTheSummary() throws Exception {
        Path again = dir.resolve("runs/again");
        Run r = eval("no-rag", again);
        assertThat(r.code()).as(r.err()).isZero();
        fits(r, 80, "eval");
        List<String> out = r.out().lines().toList();
        assertThat(out.size()).as(r.out()).isLessThan(10); // not the whole summary.json (70-120 lines)
        assertThat(r.out()).doesNotContain("\"schema_version\"").doesNotContain("{");
        assertThat(out.getFirst()).startsWith("run ").contains("method").contains("nq-em");
        assertThat(out.get(2)).startsWith("again").contains("no-rag").contains("n=6");
        // progress off a terminal: lines with the rate, the time left and the closing count
        assertThat(r.err()).contains("no-rag on nq-open: 6/6 questions (100%)").contains("/s")
                .contains("no-rag on nq-open: 6 questions in");
        assertThat(r.err().lines().filter(l -> l.contains("questions (")).anyMatch(l -> l.contains(" left")))
                .as(r.err()).isTrue();

        Path json = dir.resolve("runs/json");
        Run j = eval("no-rag", json, "--json");
        assertThat(j.code()).as(j.err()).isZero();
        JsonNode printed = JSON.readTree(j.out());
        assertThat(printed).isEqualTo(JSON.readTree(json.resolve("summary.json").toFile()));
        assertThat(j.out()).isEqualTo(Files.readString(json.resolve("summary.json")));
    }

    @Test
    void compareWithPairedDifferencesAndACragTableFitsEightyColumnsAndAWiderTerminalShowsMoreColumns() throws Exception {
        Run r = veracity(80, "compare", runA.toString(), runB.toString(), crag.toString(), "--baseline", runA.toString());
        assertThat(r.code()).as(r.err()).isZero();
        fits(r, 80, "compare");
        assertThat(r.out()).contains("Paired differences against no-rag-with-a-long-folder-name");
        // the CRAG rows whole: the run, the method, both metrics
        String subset = r.out().lines().filter(l -> l.startsWith("truthrl-on-crag [comparison]")).findFirst().orElseThrow();
        assertThat(subset).contains("truthrl", "-0.500");
        assertThat(r.out()).contains("Columns not shown at 80 characters");

        Run wide = veracity(240, "compare", runA.toString(), runB.toString(), crag.toString(), "--baseline",
                runA.toString());
        fits(wide, 240, "compare at 240");
        String header80 = r.out().lines().filter(l -> l.startsWith("run ")).findFirst().orElseThrow();
        String header240 = wide.out().lines().filter(l -> l.startsWith("run ")).findFirst().orElseThrow();
        assertThat(header240.split("\\s{2,}").length).isGreaterThan(header80.split("\\s{2,}").length);
        assertThat(header240).contains("model", "calls/q", "tokens/q", "wall s/q", "failed");
    }

    /** traces runs and stats: a table of the accounting, the breakdowns dropped (and named) at 80 columns. */
    @Test
    void tracesFitEightyColumnsAndAWiderTerminalShowsEveryColumn() throws Exception {
        for (String command : List.of("runs", "stats")) {
            Run r = veracity(80, "traces", command, runA.toString());
            assertThat(r.code()).as(r.err()).isZero();
            fits(r, 80, "traces " + command);
            assertThat(r.out()).contains("wall ms").contains("critical path ms").contains("Columns not shown at 80");
            Run wide = veracity(240, "traces", command, runA.toString());
            assertThat(wide.out().lines().findFirst().orElseThrow()).contains("retries", "cached tokens", "model ms");
        }
    }

    /** verify --format text: the claim table, its questions wrapped whole, and the rewards. */
    @Test
    void verifysClaimTableFitsEightyColumns() throws Exception {
        Path docs = dir.resolve("appendix-c.jsonl");
        StringBuilder lines = new StringBuilder();
        for (dev.veracity.qa.Document d : dev.veracity.methods.march.AppendixC.DOCUMENTS) {
            lines.append(JSON.createObjectNode().put("id", d.id()).put("text", d.text())).append('\n');
        }
        Files.writeString(docs, lines);
        try (SimServer march = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules()
                .toArray(dev.veracity.sim.Rule[]::new)).build())) {
            Run r = veracity(80, "verify", "--question", dev.veracity.methods.march.AppendixC.QUESTION, "--response",
                    dev.veracity.methods.march.AppendixC.SOLVER_RESPONSE, "--docs", docs.toString(), "--llm-base-url",
                    march.baseUrl(), "--model", "sim-model", "--cache", "off", "--trace-file",
                    dir.resolve("verify-traces.db").toString(), "--format", "text");
            assertThat(r.code()).as(r.err()).isZero();
            fits(r, 80, "verify --format text");
            assertThat(r.out()).contains("checker answers").contains("dysautonomia").contains("zero-tolerance reward");
        }
    }

    /** demo --exchange: the tables of traced calls and the MARCH demo's claim table. */
    @Test
    void theExchangeDemosTablesFitEightyColumns() throws Exception {
        Run r = veracity(80, "demo", "--exchange", "--cache-file", dir.resolve("demo-cache.db").toString(),
                "--trace-file", dir.resolve("demo-traces.db").toString());
        assertThat(r.code()).as(r.err()).isZero();
        List<String> out = r.out().lines().toList();
        int first = out.indexOf("== First run: traced calls");
        assertThat(first).as(r.out()).isNotNegative();
        assertThat(out.get(first + 1)).startsWith("#").contains("role", "latency ms", "output");
        int march = out.indexOf(out.stream().filter(l -> l.startsWith("#") && l.contains("question (Proposer)"))
                .findFirst().orElseThrow());
        for (List<String> table : List.of(out.subList(first, first + 8), out.subList(march, march + 8))) {
            assertThat(table).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        }
    }

    @Test
    void reportsMessagesFitEightyColumns() throws Exception {
        Run r = veracity(80, "report", runA.toString(), runB.toString(), crag.toString(), "--out",
                dir.resolve("report").toString());
        assertThat(r.code()).as(r.err()).isZero();
        fits(r, 80, "report");
        assertThat(r.out()).contains("Report: file:");
        assertThat(r.err()).contains("Writing the report: 5/5 steps (100%)");
    }
}
