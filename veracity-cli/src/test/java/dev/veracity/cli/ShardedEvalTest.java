package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.RuleMatch;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eval --shard I/N} on the simulator, three shards joined by {@code merge}: the merged folder reads as the
 * unsharded run's; the command line's mistakes are one line each, exit 2, before anything is written.
 */
class ShardedEvalTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DOC1_NUMBER = Pattern.compile("Document 1: .*?(\\d[\\d,.]*)");

    @TempDir
    Path dir;

    /** The first number of the first document; wrong ("0") for the towns whose name starts with a vowel. */
    private static String answer(RuleMatch m) {
        String prompt = m.prompt();
        int question = prompt.lastIndexOf("\nQuestion: ");
        String tail = prompt.substring(Math.max(0, question));
        Matcher n = DOC1_NUMBER.matcher(tail);
        boolean vowel = tail.matches("(?s).*population of [AEIOU].*");
        return "All Correct Answers: [\"" + (vowel ? "0" : n.find() ? n.group(1) : "unknown") + "\"]. Explanation: ok.";
    }

    private Path data() throws Exception {
        String[] towns = {"Omaha", "Lincoln", "Bellevue", "Grand Island", "Kearney", "Fremont", "Hastings", "Norfolk",
                "Columbus", "Papillion", "Ord", "Elkhorn"};
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < towns.length; i++) {
            String people = (1000 + 37 * i) + "";
            lines.append(JSON.writeValueAsString(Map.of("question", "What is the population of " + towns[i] + "?",
                    "documents", List.of(Map.of("text", towns[i] + " had " + people + " people.", "type", "correct",
                            "answer", people)),
                    "disambig_entity", List.of(towns[i]), "gold_answers", List.of(people), "wrong_answers", List.of())))
                    .append('\n');
        }
        return Files.writeString(dir.resolve("towns.jsonl"), lines.toString());
    }

    private CliRun.Result eval(SimServer sim, Path data, String out, String... more) {
        List<String> args = new ArrayList<>(List.of("eval", "--method", "standard-rag", "--dataset", "ramdocs", "--data",
                data.toString(), "--out", dir.resolve(out).toString(), "--llm-base-url", sim.baseUrl(), "--model",
                "sim-model", "--concurrency", "1", "--questions-at-once", "1", "--cache", "off", "--no-preflight"));
        args.addAll(List.of(more));
        return CliRun.run(args.toArray(String[]::new));
    }

    private static List<JsonNode> lines(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            out.add(comparable(JSON.readTree(l)));
        }
        return out;
    }

    /** Without what a merge cannot make equal (README, "Sharded runs"): per-machine timings and run ids. */
    private static JsonNode comparable(JsonNode n) {
        ObjectNode o = n.deepCopy();
        o.remove(List.of("wall_ms", "critical_path_ms", "model_ms", "trace_run", "started", "finished", "wall_seconds",
                "wall_ms_per_question", "critical_path_ms_per_question", "model_ms_per_question"));
        if (o.get("roles") instanceof ObjectNode roles) {
            roles.forEach(r -> ((ObjectNode) r).remove(List.of("seconds", "model_seconds", "seconds_per_question",
                    "model_seconds_per_question")));
        }
        if (o.get("retrieval") instanceof ObjectNode r) {
            r.remove("ms_per_question");
        }
        return o;
    }

    @Test
    void threeShardsOnTheSimulatorMergeIntoTheUnshardedRun() throws Exception {
        Path data = data();
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(1, 0))
                .rules(Rule.of("(?s)All Correct Answers", ShardedEvalTest::answer)).build())) {
            assertThat(eval(sim, data, "whole").code()).isZero();
            for (int i = 0; i < 3; i++) {
                CliRun.Result r = eval(sim, data, "s" + i, "--shard", i + "/3");
                assertThat(r.code()).as(r.err()).isZero();
            }
            // a resume into a shard's folder with another shard is refused, before any model call
            CliRun.Result other = eval(sim, data, "s0", "--shard", "1/3");
            assertThat(other.code()).isEqualTo(2);
            assertThat(other.err().strip()).doesNotContain("\n").contains("another configuration")
                    .contains("shard: \"0/3\" -> \"1/3\"");
            CliRun.Result bad = eval(sim, data, "bad", "--shard", "3/3");
            assertThat(bad.code()).isEqualTo(2);
            assertThat(bad.err()).contains("0-based");
            assertThat(dir.resolve("bad")).doesNotExist();
        }
        String s0 = dir.resolve("s0").toString();
        String s1 = dir.resolve("s1").toString();
        String s2 = dir.resolve("s2").toString();

        CliRun.Result merged = CliRun.run("merge", s0, s1, s2, "--out", dir.resolve("merged").toString());
        assertThat(merged.code()).as(merged.err()).isZero();
        assertThat(merged.out()).contains("merged").contains(" n=12 ");
        assertThat(lines(dir.resolve("merged/results.jsonl"))).isEqualTo(lines(dir.resolve("whole/results.jsonl")));
        assertThat(comparable(JSON.readTree(dir.resolve("merged/summary.json").toFile())))
                .isEqualTo(comparable(JSON.readTree(dir.resolve("whole/summary.json").toFile())));
        // compare reads it as any run, and tells a shard from a whole run
        CliRun.Result compared = CliRun.run("compare", dir.resolve("merged").toString(), s0);
        assertThat(compared.code()).as(compared.err()).isZero();
        assertThat(compared.out()).contains("s0: shard 0/3 of the questions").doesNotContain("merged: shard");
        // and the report shows the shard in "How this run was made" (the run's configuration)
        CliRun.Result reported = CliRun.run("report", s0, "--out", dir.resolve("report").toString());
        assertThat(reported.code()).as(reported.err()).isZero();
        try (var pages = Files.walk(dir.resolve("report"))) {
            assertThat(pages.filter(p -> p.toString().endsWith(".html")).map(ShardedEvalTest::read)
                    .filter(html -> html.contains("How this run was made")))
                    .singleElement().asString().containsPattern(">shard<[^\\n]*>0/3<");
        }
        CliRun.Result traces = CliRun.run("traces", "stats", dir.resolve("merged").toString());
        assertThat(traces.code()).as(traces.err()).isZero();
        assertThat(traces.out()).contains("s0@").contains("s1@").contains("s2@"); // every shard's calls

        // refusals: one line, exit 2, nothing written
        CliRun.Result missing = CliRun.run("merge", s0, s2, "--out", dir.resolve("m1").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().strip()).doesNotContain("\n").contains("shard 1/3 missing");
        assertThat(dir.resolve("m1")).doesNotExist();
        CliRun.Result full = CliRun.run("merge", s0, s1, s2, "--out", dir.resolve("merged").toString());
        assertThat(full.code()).isEqualTo(2);
        assertThat(full.err().strip()).doesNotContain("\n").contains("exists and is not empty");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
