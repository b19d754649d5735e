package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.RuleMatch;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluation runner end to end in a separate JVM against the simulator: killed with SIGKILL mid-way and started
 * again, it ends with exactly the asked number of distinct result lines and does not ask the model again for the
 * questions it had finished.
 */
class EvalCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DOC1_NUMBER = Pattern.compile("Document 1: .*?(\\d[\\d,.]*)");

    @TempDir
    Path dir;

    /** A model that answers the concatenated prompt with the first number of the first document. */
    private static String answer(RuleMatch m) {
        String prompt = m.prompt();
        int question = prompt.lastIndexOf("\nQuestion: ");
        Matcher n = DOC1_NUMBER.matcher(prompt.substring(Math.max(0, question)));
        return "All Correct Answers: [\"" + (n.find() ? n.group(1) : "unknown") + "\"]. Explanation: from Document 1.";
    }

    private Process eval(SimServer sim, Path data, Path out) throws Exception {
        return CliProcess.start("eval", "--method", "standard-rag", "--dataset", "ramdocs", "--data", data.toString(),
                "--limit", "60", "--out", out.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                "--concurrency", "4", "--cache-file", dir.resolve("cache.db").toString()).process();
    }

    private static List<JsonNode> lines(Path results) throws Exception {
        if (!Files.exists(results)) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(results)) {
            if (!l.isBlank()) {
                out.add(JSON.readTree(l));
            }
        }
        return out;
    }

    private static int completeLines(Path results) throws Exception {
        if (!Files.exists(results)) {
            return 0;
        }
        String s = Files.readString(results);
        return (int) s.chars().filter(c -> c == '\n').count();
    }

    @Test
    void aKilledRunResumesToExactlyTheAskedQuestionsWithoutRedoingFinishedOnes() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        Path out = dir.resolve("run");
        Path results = out.resolve("results.jsonl");
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(40, 0))
                .rules(Rule.of("(?s)All Correct Answers", EvalCommandTest::answer)).build())) {
            Process first = eval(sim, ramdocs, out);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (completeLines(results) < 15 && first.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(first.isAlive()).as("first run still going when killed").isTrue();
            first.destroyForcibly(); // SIGKILL
            first.waitFor();
            long requestsAtKill = sim.counters().generationRequests();
            int linesAtKill = completeLines(results);
            assertThat(linesAtKill).isBetween(15, 59);

            Process second = eval(sim, ramdocs, out);
            assertThat(second.waitFor()).isZero();

            List<JsonNode> all = lines(results);
            Set<String> ids = new HashSet<>();
            all.forEach(l -> ids.add(l.get("id").asText()));
            assertThat(all).hasSize(60);
            assertThat(ids).hasSize(60);
            // Finished questions were not asked again; questions in flight at the kill may be (once each).
            long secondRunRequests = sim.counters().generationRequests() - requestsAtKill;
            assertThat(secondRunRequests).isLessThanOrEqualTo(60 - linesAtKill);
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertThat(summary.get("n").asInt()).isEqualTo(60);
            assertThat(summary.get("method").asText()).isEqualTo("standard-rag");
            assertThat(summary.at("/metrics/strict-multi").isNumber()).isTrue();
            assertThat(summary.at("/metrics/strict-multi.precision").isNumber()).isTrue();
            assertThat(summary.get("calls_per_question").asDouble()).isBetween(0.0, 1.0);
            JsonNode line = all.getFirst();
            assertThat(line.get("prediction").asText()).startsWith("All Correct Answers:");
            assertThat(line.get("answers")).isNotEmpty();
            assertThat(line.get("gold")).isNotEmpty();
            assertThat(line.has("trace_run")).isTrue();
            assertThat(out.resolve("traces.db")).exists();
        }
    }

    /**
     * Stopped by a signal (SIGTERM here: the shutdown hook Ctrl-C's SIGINT runs too, and a test launched in the
     * background inherits SIGINT ignored), a run says what it kept and how to go on; compare and report read the
     * folder as a partial run; the command it names finishes the run.
     */
    @Test
    void anInterruptedRunSaysWhatItKeptAndIsReadAsPartialUntilResumed() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        Path out = dir.resolve("run");
        Path results = out.resolve("results.jsonl");
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(40, 0))
                .rules(Rule.of("(?s)All Correct Answers", EvalCommandTest::answer)).build())) {
            List<String> args = List.of("eval", "--method", "standard-rag", "--dataset", "ramdocs", "--data",
                    ramdocs.toString(), "--limit", "60", "--out", out.toString(), "--llm-base-url", sim.baseUrl(),
                    "--model", "sim-model", "--concurrency", "4", "--cache-file", dir.resolve("cache.db").toString());
            CliProcess run = CliProcess.start(args.toArray(String[]::new));
            Process p = run.process();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (completeLines(results) < 15 && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(p.isAlive()).as("still answering when stopped").isTrue();
            run.terminate(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            run.awaitEnd();

            String said = String.join("\n", run.out()) + "\n" + String.join("\n", run.err());
            Matcher m = Pattern.compile("Interrupted: (\\d+) of 60 questions answered, kept in (\\S+) \\(no summary.json"
                    + " yet: compare and report read the run as partial\\); resume with the same command: (.*)").matcher(said);
            assertThat(m.find()).as(said).isTrue();
            int kept = Integer.parseInt(m.group(1));
            assertThat(kept).isBetween(15, 59).isLessThanOrEqualTo(completeLines(results));
            assertThat(m.group(2)).isEqualTo(results.toString());
            assertThat(m.group(3)).isEqualTo("./veracity " + String.join(" ", args));
            assertThat(out.resolve("summary.json")).doesNotExist();

            CliRun.Result compared = CliRun.run("compare", out.toString());
            assertThat(compared.code()).as(compared.err()).isZero();
            int lines = completeLines(results);
            assertThat(compared.out()).contains("* run: partial, " + lines + " questions answered so far (no summary.json:"
                    + " its eval was interrupted or is still running)");
            CliRun.Result reported = CliRun.runWithStderrInOut("report", out.toString(), "--out", dir.resolve("report")
                    .toString());
            assertThat(reported.code()).as(reported.out()).isZero();
            assertThat(reported.out()).contains("report: run is a partial run, " + lines + " questions answered so far");

            // the command it named finishes the run
            CliProcess.Ran resumed = CliProcess.run(Map.of(), args.toArray(String[]::new));
            assertThat(resumed.code()).as(resumed.err()).isZero();
            assertThat(lines(results)).hasSize(60);
            CliRun.Result finished = CliRun.run("compare", out.toString());
            assertThat(finished.out()).doesNotContain("partial").contains(" 60 ");
        }
    }

    @Test
    void badArgumentsAreClearErrors() throws Exception {
        Path out = dir.resolve("x");
        CliRun.Result r = CliRun.run("eval", "--method", "nope", "--dataset", "ramdocs", "--data", "missing.jsonl",
                "--out", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown method 'nope'").contains("standard-rag");
        File none = out.toFile();
        assertThat(none).doesNotExist();
    }

    @Test
    void endsWithTheRunsRowOfTheComparisonTable() throws Exception {
        Path data = dir.resolve("ramdocs.jsonl");
        StringBuilder lines = new StringBuilder();
        String[][] qa = {{"Broken Bow", "3,559"}, {"Lincoln", "258,379"}, {"Omaha", "408,958"}};
        for (String[] q : qa) {
            lines.append(JSON.writeValueAsString(java.util.Map.of("question", "What is the population of " + q[0] + "?",
                    "documents", List.of(java.util.Map.of("text", q[0] + " had " + q[1] + " people.", "type", "correct",
                            "answer", q[1])),
                    "disambig_entity", List.of(q[0]), "gold_answers", List.of(q[1]), "wrong_answers", List.of())))
                    .append('\n');
        }
        Files.writeString(data, lines.toString());
        Path out = dir.resolve("small");
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(1, 0))
                .rules(Rule.of("(?s)All Correct Answers", EvalCommandTest::answer)).build())) {
            CliProcess.Ran ran = CliProcess.run(Map.of("COLUMNS", "400"), // wide enough for every column
                    "eval", "--method", "standard-rag", "--dataset", "ramdocs", "--data", data.toString(),
                    "--out", out.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                    "--cache-file", dir.resolve("cache.db").toString());
            assertThat(ran.code()).as(ran.err()).isZero();
            String stdout = ran.out();
            // the run's row of the comparison table, not summary.json (eval --json prints that)
            assertThat(stdout).doesNotContain("{").doesNotContain("\"schema_version\"");
            List<String> rows = stdout.lines().toList();
            assertThat(rows.getFirst()).startsWith("run ").contains("strict-multi").contains("calls/q")
                    .contains("parse failures");
            assertThat(rows.get(2)).startsWith("small").contains("standard-rag").contains(" n=3 ").contains("1.00");
            assertThat(rows).hasSize(3);
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertThat(summary.at("/metrics_n/strict-multi").asInt()).isEqualTo(3);
        }
    }
}
