package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {

    @TempDir
    Path dir;

    private String run(String... args) {
        CliRun.Result r = CliRun.run(args);
        assertThat(r.code()).as(r.err()).isZero();
        return r.out();
    }

    @Test
    void runsTheExchangeThroughTheWholeStackAndReplaysItFromTheCache() {
        String out = run("demo", "--exchange", "--cache-file", dir.resolve("cache.db").toString(),
                "--trace-file", dir.resolve("traces.db").toString());

        assertThat(out).contains("agent-1", "agent-2", "agent-3", "aggregator");
        assertThat(out).contains("Final answer: All Correct Answers: [1889]");
        assertThat(out).contains("Rerun: 4 calls, 4 answered from the cache, 0 new requests to the model.");
        // The agents ran concurrently: the first run's critical path is well under the sum of its latencies.
        Matcher m = Pattern.compile("critical path ([\\d.]+) ms, sum of latencies ([\\d.]+) ms").matcher(out);
        assertThat(m.find()).isTrue();
        assertThat(Double.parseDouble(m.group(1))).isLessThan(0.75 * Double.parseDouble(m.group(2)));
        assertThat(dir.resolve("traces.db")).exists();
    }

    @Test
    void theTracesCommandListsSummarisesAndExportsTheDemoRun() throws Exception {
        String traces = dir.resolve("traces.db").toString();
        String demo = run("demo", "--exchange", "--cache-file", dir.resolve("cache.db").toString(), "--trace-file", traces);
        Matcher m = Pattern.compile("traces stats (demo-\\S+) ").matcher(demo);
        assertThat(m.find()).isTrue();
        String runId = m.group(1);

        // the tables: run (or question), calls, failed, cache hits, ...
        String runs = run("traces", "runs", "--trace-file", traces);
        assertThat(runs.lines().findFirst().orElseThrow()).containsPattern("^run +calls +failed +cache hits ");
        assertThat(runs).containsPattern("(?m)^" + Pattern.quote(runId) + " +4 +0 ")
                .containsPattern("(?m)^" + Pattern.quote(runId + "-rerun") + " +4 +0 +4 ");
        String stats = run("traces", "stats", runId, "--trace-file", traces);
        assertThat(stats.lines().findFirst().orElseThrow()).startsWith("question ");
        assertThat(stats).containsPattern("(?m)^eiffel +4 ").containsPattern("(?m)^run " + Pattern.quote(runId) + " +4 ");
        Path out = dir.resolve("calls.jsonl");
        run("traces", "export", runId, "--trace-file", traces, "--out", out.toString());
        java.util.List<String> lines = java.nio.file.Files.readAllLines(out);
        assertThat(lines).hasSize(4);
        assertThat(lines.getLast()).contains("\"role\":\"aggregator\"").contains("\"question\":\"eiffel\"");
    }

    /** An earlier demo left its questions beside the run folders, where the quick start's {@code demo/*} names them. */
    @Test
    void theQuestionsAnEarlierDemoLeftBesideTheRunFoldersAreRemoved() throws Exception {
        Path out = dir.resolve("demo");
        Path stale = MethodsDemo.copyBundled(java.nio.file.Files.createDirectories(out).resolve("ramdocs-20.jsonl"));

        run("demo", "--out", out.toString(), "--limit", "2", "--latency-ms", "0", "--cache", "off", "--method",
                "standard-rag", "--trace-file", dir.resolve("traces.db").toString());

        assertThat(stale).doesNotExist();
        try (java.util.stream.Stream<Path> entries = java.nio.file.Files.list(out)) {
            assertThat(entries.filter(p -> !p.getFileName().toString().startsWith("."))) // what demo/* names
                    .isNotEmpty().allSatisfy(p -> assertThat(p.resolve("run.json")).isRegularFile());
        }
    }

    @Test
    void aBadSettingIsOneClearErrorLine() {
        CliRun.Result r = CliRun.run("demo", "--cache", "sometimes", "--cache-file", dir.resolve("c.db").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("veracity demo: unknown cache mode 'sometimes': use off, read-only or read-write");
    }

    @Test
    void theDemoRunsEveryMethodOnTheBundledQuestionsAndPrintsOneTable() throws Exception {
        Path runs = dir.resolve("demo");
        String out = run("demo", "--out", runs.toString(), "--limit", "4", "--latency-ms", "0", "--cache", "off");

        java.util.List<String> methods = java.util.List.copyOf(dev.veracity.methods.Methods.names());
        assertThat(methods).hasSizeGreaterThanOrEqualTo(9);
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        java.util.Set<Double> scores = new java.util.HashSet<>();
        for (String m : methods) {
            // a row per method in the table (run, method, model, retrieval, questions), a run folder per method with
            // every question answered
            assertThat(out).containsPattern("(?m)^" + Pattern.quote(m) + "\\s+" + Pattern.quote(m)
                    + "\\s+sim-model\\s+(none|dataset)\\s+4\\s");
            var summary = mapper.readTree(runs.resolve(m).resolve("summary.json").toFile());
            assertThat(summary.get("n").asInt()).as(m).isEqualTo(4);
            assertThat(summary.get("failed").asInt()).as(m).isZero();
            assertThat(summary.path("demo").asText()).as(m).isEqualTo("simulator, built-in reader");
            // the built-in reader writes each role's format: nothing a method reads fails to parse
            assertThat(summary.get("parse_failures").asInt()).as(m).isZero();
            assertThat(summary.get("calls_per_question").asDouble()).as(m).isPositive();
            assertThat(summary.get("samples_per_question").asDouble()).as(m)
                    .isGreaterThanOrEqualTo(summary.get("calls_per_question").asDouble());
            scores.add(summary.at("/metrics/strict_acc").asDouble(summary.path("metrics").elements().next().asDouble()));
        }
        assertThat(scores).as("the reader's answers depend on what each method shows it").hasSizeGreaterThan(1);
        assertThat(out).contains("they measure plumbing, not model quality");

        // the report command the demo prints works, and works again: its report is not among the runs it reads
        java.util.regex.Matcher said = Pattern.compile("the report:\\s+\\./veracity report (\\S+)/\\* --out (\\S+)").matcher(out);
        assertThat(said.find()).as(out).isTrue();
        assertThat(said.group(1)).isEqualTo(runs.toString());
        for (int i = 0; i < 2; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("report"));
            try (var entries = java.nio.file.Files.list(runs)) {
                entries.filter(p -> !p.getFileName().toString().startsWith(".")).map(Path::toString).sorted()
                        .forEach(args::add);
            }
            args.addAll(java.util.List.of("--out", said.group(2)));
            CliRun.Result again = CliRun.run(args.toArray(String[]::new));
            assertThat(again.code()).as(again.err()).isZero();
        }
        assertThat(Path.of(said.group(2)).resolve("index.html")).isRegularFile();
    }

    @Test
    void eachDemoRunIsAnEvalJobWithItsRunRecordAndMarchsTrainingRecords() throws Exception {
        Path runs = dir.resolve("jobs");
        String out = run("demo", "--out", runs.toString(), "--method", "march,standard-rag", "--limit", "2",
                "--latency-ms", "0", "--cache", "off");

        assertThat(out).contains("march", "standard-rag");
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        // the job runner records what the answers depend on, as eval does, so that compare, report and a later eval
        // read the folder as one run
        var config = mapper.readTree(runs.resolve("march/run.json").toFile());
        assertThat(config.get("method").asText()).isEqualTo("march");
        assertThat(config.get("dataset").asText()).isEqualTo("ramdocs");
        assertThat(config.get("documents").asText()).isEqualTo("dataset");
        assertThat(config.get("judge").asText()).isEqualTo("none");
        // MARCH's side output goes through its method hook, as in eval: the run folder's records, one per step
        java.util.List<String> records = java.nio.file.Files.readAllLines(runs.resolve("march/march-records.jsonl"));
        assertThat(records).isNotEmpty().allSatisfy(l -> assertThat(mapper.readTree(l).get("run").asText()).isEqualTo("march"));
        assertThat(runs.resolve("standard-rag/march-records.jsonl")).doesNotExist();
        // and the summary keeps the demo's labels
        assertThat(mapper.readTree(runs.resolve("march/summary.json").toFile()).toString())
                .contains("\"demo\":\"simulator, built-in reader\"");
    }
}
