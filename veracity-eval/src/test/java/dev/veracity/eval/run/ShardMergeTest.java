package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.report.ComparisonTable;
import dev.veracity.eval.report.RunDir;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eval --shard I/N} and {@code merge}: a scripted eval run whole and as three shards, merged, equals the whole
 * run; the split is a function of the question id alone; every refusal comes before anything is written.
 */
class ShardMergeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int QUESTIONS = 24;
    private static final int FAILS = 5;

    @TempDir
    Path dir;

    /** Model calls the scripted server answered, over every run of a test. */
    private final AtomicInteger served = new AtomicInteger();

    /**
     * Question k asks the model k % 3 + 1 times (its costs differ by question) and answers the last reply: "a{k}",
     * except "wrong" for every third question, so the shards' metric means differ from the whole run's; question 5
     * always fails (a failure record, asked again by a resume).
     */
    private static final QaMethod STEPS = new QaMethod() {
        @Override
        public String name() {
            return "steps";
        }

        @Override
        public MethodSpec spec() {
            return MethodSpec.named(name()).withNeeds(); // closed book
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            int k = Integer.parseInt(item.id().substring(1));
            if (k == FAILS) {
                throw new IllegalStateException("question " + k + " cannot be answered");
            }
            String out = "";
            for (int step = 0; step <= k % 3; step++) {
                out = ctx.llm().call(ctx.role("answerer", step), LlmRequest.user("Q" + step + ": " + item.question())
                        .build()).text();
            }
            return new MethodAnswer(out, List.of(out), List.of(), Map.of("length", (double) out.length()));
        }
    };

    /** The scripted server: "a{k}" for question k, "wrong" for k divisible by 3. */
    private final class Scripted extends ScriptedJobEnvironment {
        Scripted() {
            super(ScriptedBackend.perSample((r, i) -> {
                served.incrementAndGet();
                String p = r.promptText();
                int k = Integer.parseInt(p.substring(p.lastIndexOf(' ') + 1));
                return k % 3 == 0 ? "wrong" : "a" + k;
            }));
        }
    }


    /** Questions q0..q23 ("question k", gold "a{k}"), in file order or reversed. */
    private Path data(String name, boolean reversed) throws Exception {
        List<String> lines = new ArrayList<>();
        for (int k = 0; k < QUESTIONS; k++) {
            lines.add("{\"id\": \"q" + k + "\", \"question\": \"question " + k + "\", \"answer\": [\"a" + k + "\"]}");
        }
        if (reversed) {
            Collections.reverse(lines);
        }
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    private static VeracityConfig model(String name) {
        return VeracityConfig.resolve(Map.of(), Path.of("no-such-config.properties"), false,
                Map.of("llm-base-url", "http://127.0.0.1:9/v1", "model", name, "cache", "off"));
    }

    private EvalJob.Builder job(Path data, String out) {
        return EvalJob.builder(STEPS, "nq-open", data, dir.resolve(out)).model(model("scripted")).documents(ScriptedJobEnvironment.OWN_DOCUMENTS)
                .questionsAtOnce(1).preflight(false);
    }

    private EvalRunner.Outcome run(EvalJob job) throws Exception {
        return EvalJobRunner.run(job, new Scripted()).outcome();
    }

    /** The whole run and its three shards, into "whole" and "s0".."s2". */
    private Path whole() throws Exception {
        Path data = data("q.jsonl", false);
        run(job(data, "whole").build());
        for (int i = 0; i < 3; i++) {
            run(job(data, "s" + i).shard(Shard.of(i, 3)).build());
        }
        return data;
    }

    private List<Path> shards() {
        return List.of(dir.resolve("s0"), dir.resolve("s1"), dir.resolve("s2"));
    }

    /** A file's lines as JSON trees. */
    private static List<JsonNode> lines(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            if (!l.isBlank()) {
                out.add(JSON.readTree(l));
            }
        }
        return out;
    }

    /** The fields a merge cannot make equal (README, "Sharded runs"): timings measured per machine, run ids. */
    private static JsonNode comparable(JsonNode n) {
        ObjectNode o = n.deepCopy();
        for (String f : List.of("wall_ms", "critical_path_ms", "model_ms", "trace_run", "started", "finished",
                "wall_seconds", "wall_ms_per_question", "critical_path_ms_per_question", "model_ms_per_question",
                "concurrency_limit")) {
            o.remove(f);
        }
        if (o.get("roles") instanceof ObjectNode roles) {
            roles.forEach(r -> ((ObjectNode) r).remove(List.of("seconds", "model_seconds", "seconds_per_question",
                    "model_seconds_per_question")));
        }
        return o;
    }

    @Test
    void threeShardsMergedEqualTheWholeRunEachQuestionAnsweredOnce() throws Exception {
        whole();
        int wholeCalls = (int) lines(dir.resolve("whole/results.jsonl")).stream().mapToLong(l -> l.path("calls").asLong())
                .sum();
        // each question was answered by exactly one shard: the shards together asked the server what the whole run did
        assertThat(served.get()).isEqualTo(2 * wholeCalls);
        Set<String> seen = new HashSet<>();
        int answered = 0;
        for (Path s : shards()) {
            for (JsonNode l : lines(s.resolve("results.jsonl"))) {
                assertThat(seen.add(l.get("id").asText())).as("asked once: " + l.get("id")).isTrue();
                answered += l.has("failed") ? 0 : 1;
            }
        }
        assertThat(answered).isEqualTo(QUESTIONS - 1);
        // a shard's file in another order (a shard answers questions as they finish): the merge orders by position
        Path s1 = dir.resolve("s1/results.jsonl");
        List<String> reversed = new ArrayList<>(Files.readAllLines(s1));
        Collections.reverse(reversed);
        Files.write(s1, reversed);

        // the method's side file (its training records), one per shard, is joined too
        for (Path s : shards()) {
            Files.writeString(s.resolve("steps-records.jsonl"), "{\"shard\": \"" + s.getFileName() + "\"}\n");
        }
        // a shard killed while it wrote a record leaves a torn last line: it is left out, not run into the next file
        Files.writeString(dir.resolve("s0/steps-records.jsonl"), "{\"torn\": ", java.nio.file.StandardOpenOption.APPEND);
        ShardMerge.Result r = ShardMerge.merge(List.of(dir.resolve("s2"), dir.resolve("s0"), dir.resolve("s1")),
                dir.resolve("merged"), new ShardMerge.Allow(false, false, List.of("steps-records.jsonl")));
        assertThat(Files.readAllLines(dir.resolve("merged/steps-records.jsonl")))
                .containsExactly("{\"shard\": \"s0\"}", "{\"shard\": \"s1\"}", "{\"shard\": \"s2\"}");

        assertThat(r.shard().whole()).isTrue();
        assertThat(r.answered()).isEqualTo(QUESTIONS - 1);
        assertThat(r.failed()).isEqualTo(1);
        List<JsonNode> want = lines(dir.resolve("whole/results.jsonl")).stream().map(ShardMergeTest::comparable).toList();
        List<JsonNode> got = lines(dir.resolve("merged/results.jsonl")).stream().map(ShardMergeTest::comparable).toList();
        assertThat(got).isEqualTo(want); // the same rows in the same order, the failure record among them
        assertThat(got.stream().filter(l -> l.has("failed")).map(l -> l.get("id").asText())).containsExactly("q" + FAILS);
        JsonNode wantSummary = comparable(JSON.readTree(dir.resolve("whole/summary.json").toFile()));
        JsonNode gotSummary = comparable(JSON.readTree(dir.resolve("merged/summary.json").toFile()));
        assertThat(gotSummary).isEqualTo(wantSummary);
        assertThat(gotSummary.get("failed").asInt()).isEqualTo(1);
        // run.json is the whole run's: an eval into the merged folder resumes it, asking only the failed question
        assertThat(JSON.readTree(dir.resolve("merged/run.json").toFile()))
                .isEqualTo(JSON.readTree(dir.resolve("whole/run.json").toFile()));
        int before = served.get();
        EvalRunner.Outcome again = run(job(dir.resolve("q.jsonl"), "merged").build());
        assertThat(again.alreadyDone()).isEqualTo(QUESTIONS - 1);
        assertThat(again.failures()).singleElement().asString().startsWith("q" + FAILS + ":");
        assertThat(served.get()).isEqualTo(before);
        // the traces of every shard, each question's calls under the trace run its line names
        try (TraceStore store = TraceStore.open(dir.resolve("merged/traces.db"))) {
            for (JsonNode l : lines(dir.resolve("merged/results.jsonl"))) {
                if (l.has("failed")) {
                    continue;
                }
                assertThat(store.calls(l.get("trace_run").asText(), l.get("id").asText())).hasSize(l.get("calls").asInt());
            }
        }
        assertThat(r.traces()).isEqualTo(wholeCalls);
        // read as any run
        RunDir merged = RunDir.load(dir.resolve("merged"));
        assertThat(merged.partial()).isNull();
        assertThat(merged.shard()).isNull();
        assertThat(merged.answered()).isEqualTo(QUESTIONS - 1);
        assertThat(merged.failed()).containsExactly("q" + FAILS);
    }

    @Test
    void aMergeThatCombinedTheShardsMeansInsteadOfRefoldingTheLinesWouldDiffer() throws Exception {
        // what the equality above guards against: the shards' summaries combined (a mean of means, a summed rate)
        whole();
        JsonNode wholeSummary = JSON.readTree(dir.resolve("whole/summary.json").toFile());
        List<JsonNode> parts = new ArrayList<>();
        for (Path s : shards()) {
            parts.add(JSON.readTree(s.resolve("summary.json").toFile()));
        }
        assertThat(parts.stream().map(p -> p.get("n").asLong()).distinct()).as("shards of unequal size").hasSizeGreaterThan(1);
        ObjectNode meanOfMeans = wholeSummary.deepCopy();
        ObjectNode metrics = (ObjectNode) meanOfMeans.get("metrics");
        metrics.fieldNames().forEachRemaining(m -> metrics.put(m,
                parts.stream().mapToDouble(p -> p.at("/metrics/" + m).asDouble()).average().orElseThrow()));
        meanOfMeans.put("calls_per_question", parts.stream().mapToDouble(p -> p.get("calls_per_question").asDouble())
                .sum());
        assertThat(comparable(meanOfMeans)).isNotEqualTo(comparable(wholeSummary));
        // and the merge does not do that
        ShardMerge.merge(shards(), dir.resolve("merged"), ShardMerge.Allow.none());
        JsonNode merged = JSON.readTree(dir.resolve("merged/summary.json").toFile());
        assertThat(merged.get("metrics")).isEqualTo(wholeSummary.get("metrics"));
        assertThat(merged.get("metrics")).isNotEqualTo(meanOfMeans.get("metrics"));
    }

    @Test
    void aQuestionsShardIsAFunctionOfItsIdAlone() throws Exception {
        // pinned: SHA-256 of the id's UTF-8 bytes, first 8 bytes big-endian, unsigned, mod N (Python's hashlib agrees)
        assertThat(Shard.bucket("q0", 3)).isZero();
        assertThat(Shard.bucket("q1", 3)).isEqualTo(1);
        assertThat(Shard.bucket("q2", 3)).isEqualTo(2);
        assertThat(Shard.bucket("hotpot-5a8b57f25542995d1e6f1371", 1000)).isEqualTo(79);
        assertThat(Shard.bucket("nq-open-17", 1000)).isEqualTo(693);
        assertThat(Shard.bucket("question-id-with-ünïcode", 1000)).isEqualTo(705);
        // the same questions in each shard whatever the file's order
        Path forward = data("f.jsonl", false);
        Path backward = data("b.jsonl", true);
        run(job(forward, "f1").shard(Shard.of(1, 3)).build());
        run(job(backward, "b1").shard(Shard.of(1, 3)).build());
        Set<String> f = new HashSet<>();
        lines(dir.resolve("f1/results.jsonl")).forEach(l -> f.add(l.get("id").asText()));
        Set<String> b = new HashSet<>();
        lines(dir.resolve("b1/results.jsonl")).forEach(l -> b.add(l.get("id").asText()));
        assertThat(f).isNotEmpty().isEqualTo(b);
        // a shard's place among the whole run's questions is kept, and its summary counts its share
        for (JsonNode l : lines(dir.resolve("f1/results.jsonl"))) {
            assertThat(l.get("position").asInt()).isEqualTo(Integer.parseInt(l.get("id").asText().substring(1)));
        }
        assertThat(JSON.readTree(dir.resolve("f1/summary.json").toFile()).get("questions").asInt()).isEqualTo(f.size());
        assertThat(Shard.parse("0,2/3")).isEqualTo(Shard.of(0, 3).union(Shard.of(2, 3)));
        for (String bad : List.of("3/3", "-1/3", "1", "a/b", "0/0", "1/2/3", "")) {
            assertThatThrownBy(() -> Shard.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0-based");
        }
    }

    @Test
    void aResumeWithAnotherShardOrNoneIsRefused() throws Exception {
        Path data = data("q.jsonl", false);
        run(job(data, "s").shard(Shard.of(0, 3)).build());
        int before = served.get();
        assertThatThrownBy(() -> run(job(data, "s").shard(Shard.of(1, 3)).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shard: \"0/3\" -> \"1/3\"");
        assertThatThrownBy(() -> run(job(data, "s").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shard: \"0/3\" -> -");
        assertThat(served.get()).isEqualTo(before);
        // the shard is told apart where runs are compared
        assertThat(ComparisonTable.of(List.of(RunDir.load(dir.resolve("s")))).text(200)).contains("shard 0/3");
    }

    /** The refusal of {@code dirs} into {@code out}: one line, and nothing written. */
    private void refused(List<Path> dirs, String out, ShardMerge.Allow allow, String... says) {
        Path o = dir.resolve(out);
        boolean existed = Files.exists(o);
        assertThatThrownBy(() -> ShardMerge.merge(dirs, o, allow)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").contains(says));
        if (!existed) {
            assertThat(o).doesNotExist();
        }
    }

    @Test
    void refusesShardsThatDoNotMakeOneRunBeforeWritingAnything() throws Exception {
        Path data = whole();
        Path s0 = dir.resolve("s0");
        Path s1 = dir.resolve("s1");
        Path s2 = dir.resolve("s2");
        // another configuration (another model), the shard field excepted
        run(job(data, "other1").model(model("other")).shard(Shard.of(1, 3)).build());
        refused(List.of(s0, dir.resolve("other1"), s2), "m1", ShardMerge.Allow.none(), "shards of different runs",
                "model: \"scripted\" -> \"other\"");
        // a whole run is not a shard
        refused(List.of(dir.resolve("whole"), s1), "m2", ShardMerge.Allow.none(), "is a whole run, not a shard");
        // overlap: a shard given twice, and a folder holding questions of another shard than its run.json says
        copy(s1, dir.resolve("s1-again"));
        refused(List.of(s0, s1, dir.resolve("s1-again"), s2), "m3", ShardMerge.Allow.none(), "overlap: both hold shard 1/3");
        copy(s1, dir.resolve("fake2"));
        Path runJson = dir.resolve("fake2/run.json");
        Files.writeString(runJson, Files.readString(runJson).replace("\"1/3\"", "\"2/3\""));
        refused(List.of(s0, s1, dir.resolve("fake2")), "m4", ShardMerge.Allow.none(), "which is not in its shard 2/3");
        // a missing shard, named
        refused(List.of(s0, s2), "m5", ShardMerge.Allow.none(), "shard 1/3 missing", "--allow-missing");
        // an unfinished shard (its eval killed before the summary)
        copy(s2, dir.resolve("unfinished2"));
        Files.delete(dir.resolve("unfinished2/summary.json"));
        refused(List.of(s0, s1, dir.resolve("unfinished2")), "m6", ShardMerge.Allow.none(), "is unfinished",
                "--allow-unfinished");
        // allowed: what the unfinished shard has
        ShardMerge.Result partial = ShardMerge.merge(List.of(s0, s1, dir.resolve("unfinished2")), dir.resolve("m6"),
                new ShardMerge.Allow(false, true, List.of()));
        assertThat(partial.answered()).isEqualTo(RunDir.load(s0).answered() + RunDir.load(s1).answered()
                + RunDir.load(s2).answered());
        // an --out that is not empty
        Files.createDirectories(dir.resolve("full"));
        Files.writeString(dir.resolve("full/notes.txt"), "mine");
        refused(shards(), "full", ShardMerge.Allow.none(), "exists and is not empty");
        assertThat(Files.readString(dir.resolve("full/notes.txt"))).isEqualTo("mine");
        assertThat(dir.resolve("full")).isDirectoryNotContaining(p -> !p.getFileName().toString().equals("notes.txt"));

        // an --out that is a file
        Files.writeString(dir.resolve("afile"), "mine");
        refused(shards(), "afile", ShardMerge.Allow.none(), "is a file, not a folder");
        // a merge that fails once it has begun writing (a shard's traces unreadable) leaves no folder behind that
        // eval would take for a run to resume
        for (Path s : shards()) {
            copy(s, dir.resolve("t" + s.getFileName()));
        }
        Files.writeString(dir.resolve("ts1/traces.db"), "not a database, ".repeat(512));
        assertThatThrownBy(() -> ShardMerge.merge(List.of(dir.resolve("ts0"), dir.resolve("ts1"), dir.resolve("ts2")),
                dir.resolve("torn"), ShardMerge.Allow.none())).isNotInstanceOf(IllegalArgumentException.class);
        assertThat(dir.resolve("torn")).doesNotExist();

        // allowed: a subset, recorded as the shards it covers
        ShardMerge.Result some = ShardMerge.merge(List.of(s0, s2), dir.resolve("some"),
                new ShardMerge.Allow(true, false, List.of()));
        assertThat(some.shard()).hasToString("0,2/3");
        assertThat(RunDir.load(dir.resolve("some")).shard()).isEqualTo("0,2/3");
        assertThat(some.answered()).isEqualTo(RunDir.load(s0).answered() + RunDir.load(s2).answered());
        // and a shard's third joined later: the subset and the rest make the whole run
        ShardMerge.merge(List.of(dir.resolve("some"), s1), dir.resolve("all"), ShardMerge.Allow.none());
        assertThat(lines(dir.resolve("all/results.jsonl")).stream().map(ShardMergeTest::comparable).toList())
                .isEqualTo(lines(dir.resolve("whole/results.jsonl")).stream().map(ShardMergeTest::comparable).toList());
    }

    private static void copy(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) {
                if (Files.isRegularFile(f) && !f.getFileName().toString().equals(RunLock.FILE)) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
    }
}
