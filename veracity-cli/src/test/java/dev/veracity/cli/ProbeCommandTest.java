package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.sim.Rule;
import dev.veracity.sim.RuleMatch;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Knowledge-boundary probing against a simulator whose correct samples per question are scripted. */
class ProbeCommandTest {

    @TempDir
    Path dir;

    private static final Pattern QUESTION = Pattern.compile("### Question\\nwhat is item (\\d+)\\?");
    private static final int PER_CALL = 3;

    /** Question i has i % 4 correct samples (global sample index below that); the rest abstain or are wrong. */
    private static String answer(RuleMatch m) {
        Matcher q = QUESTION.matcher(m.prompt());
        if (!q.find()) {
            return "no question";
        }
        int i = Integer.parseInt(q.group(1));
        int global = (int) m.seed() * PER_CALL + m.sample(); // seed k for request k, samples 0.. within it
        if (global < i % 4) {
            return "<think>I know this.</think>\\boxed{answer " + i + "}";
        }
        return global % 2 == 0 ? "<think>unsure</think>\\boxed{I don't know}" : "\\boxed{something else}";
    }

    private int probe(SimServer sim, String... extra) {
        List<String> args = new ArrayList<>(List.of("probe", "--dataset", "nq-open", "--data", dir.resolve("q.jsonl").toString(),
                "--out", dir.resolve("probe").toString(), "--samples", "8", "--samples-per-call", String.valueOf(PER_CALL),
                "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache-file", dir.resolve("cache.db").toString()));
        args.addAll(List.of(extra));
        CliRun.Result r = CliRun.run(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isZero();
        return r.code();
    }

    @Test
    void theOokSetIsTheQuestionsWithoutACorrectSampleAndARerunResumesWithoutAskingAgain() throws Exception {
        StringBuilder data = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            data.append("{\"question\": \"what is item ").append(i).append("?\", \"answer\": [\"answer ").append(i).append("\"]}\n");
        }
        Files.writeString(dir.resolve("q.jsonl"), data);
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s)### Question", ProbeCommandTest::answer))
                .build())) {
            probe(sim, "--limit", "10", "--judge", "none"); // exact match alone: the requests counted are the prober's
            long first = sim.counters().generationRequests();
            assertThat(first).isEqualTo(10 * 3); // 8 samples in requests of 3, 3 and 2
            // a kill mid-write leaves a cut line: it is dropped and its question probed again
            Files.writeString(dir.resolve("probe/probe.jsonl"), "{\"id\": \"nq-open-19\", \"sampl",
                    java.nio.file.StandardOpenOption.APPEND);
            probe(sim, "--judge", "none");
            // only the ten new questions were asked (the first ten are in probe.jsonl)
            assertThat(sim.counters().generationRequests() - first).isEqualTo(10 * 3);

            ObjectMapper json = new ObjectMapper();
            Map<String, JsonNode> byQuestion = new TreeMap<>();
            Set<String> ids = new HashSet<>();
            for (String line : Files.readAllLines(dir.resolve("probe/probe.jsonl"))) {
                JsonNode n = json.readTree(line);
                assertThat(ids.add(n.get("id").asText())).as("no question twice").isTrue();
                byQuestion.put(n.get("question").asText(), n);
            }
            assertThat(byQuestion).hasSize(20);
            for (int i = 0; i < 20; i++) {
                JsonNode n = byQuestion.get("what is item " + i + "?");
                assertThat(n.get("samples").asInt()).isEqualTo(8);
                assertThat(n.get("correct").asInt()).as("question " + i).isEqualTo(i % 4);
                assertThat(n.get("ook").asBoolean()).isEqualTo(i % 4 == 0);
                assertThat(n.get("seeds").toString()).isEqualTo("[0,1,2]");
                assertThat(n.get("correct").asInt() + n.get("abstained").asInt()).isLessThanOrEqualTo(8);
            }
            List<String> ook = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve("probe/ook.jsonl"))) {
                JsonNode n = json.readTree(line);
                ook.add(n.get("question").asText());
                assertThat(n.at("/label/ook").asBoolean()).isTrue();
                assertThat(n.at("/label/answers/0").asText()).startsWith("answer ");
            }
            assertThat(ook).containsExactlyInAnyOrder("what is item 0?", "what is item 4?", "what is item 8?",
                    "what is item 12?", "what is item 16?");

            // the baselines' data from the kept responses
            Map<String, String> idOf = new TreeMap<>();
            byQuestion.forEach((q, n) -> idOf.put(q, n.get("id").asText()));
            assertThat(cli("probe-data", "--from", dir.resolve("probe").toString(), "--baseline", "r-tuning", "--out",
                    dir.resolve("rt.jsonl").toString())).isZero();
            Map<String, String> rt = byId(dir.resolve("rt.jsonl"), "response");
            assertThat(rt).hasSize(20).containsEntry(idOf.get("what is item 4?"), "\\boxed{I don't know}")
                    .containsEntry(idOf.get("what is item 5?"), "\\boxed{answer 5}");
            assertThat(cli("probe-data", "--from", dir.resolve("probe").toString(), "--baseline", "rft", "--out",
                    dir.resolve("rft.jsonl").toString())).isZero();
            Map<String, String> rft = byId(dir.resolve("rft.jsonl"), "response");
            assertThat(rft.get(idOf.get("what is item 4?"))).isEqualTo("<think>unsure</think>\\boxed{I don't know}");
            assertThat(rft.get(idOf.get("what is item 7?"))).isEqualTo("<think>I know this.</think>\\boxed{answer 7}");
            assertThat(cli("probe-data", "--from", dir.resolve("probe").toString(), "--baseline", "dpo", "--out",
                    dir.resolve("dpo.jsonl").toString())).isZero();
            Map<String, String> chosen = byId(dir.resolve("dpo.jsonl"), "chosen");
            Map<String, String> rejected = byId(dir.resolve("dpo.jsonl"), "rejected");
            assertThat(chosen.get(idOf.get("what is item 8?"))).contains("I don't know");
            assertThat(chosen.get(idOf.get("what is item 9?"))).contains("answer 9");
            assertThat(rejected.values()).allSatisfy(r -> assertThat(r).isEqualTo("\\boxed{something else}"));
            // and through rl export into a trainer's format, with TruthRL's closed-book prompt
            assertThat(cli("rl", "export", "--format", "trl-dpo", "--prompt", "truthrl-no-retrieval", "--dataset", "nq-open",
                    "--data", dir.resolve("q.jsonl").toString(), "--pairs", dir.resolve("dpo.jsonl").toString(), "--out",
                    dir.resolve("trl-dpo.jsonl").toString())).isZero();
            List<String> trl = Files.readAllLines(dir.resolve("trl-dpo.jsonl"));
            assertThat(trl).hasSize(20);
            JsonNode firstRow = json.readTree(trl.getFirst());
            assertThat(firstRow.toString()).contains("The final answer MUST be put in \\\\boxed{}");
            assertThat(firstRow.has("chosen")).isTrue();
            assertThat(firstRow.has("rejected")).isTrue();
        }
    }

    /** Every sample of question i answers right, but in other words than its gold answer ("it is answer i"). */
    private static String paraphrase(RuleMatch m) {
        Matcher q = QUESTION.matcher(m.prompt());
        return q.find() ? "<think>I know this.</think>\\boxed{it is answer " + q.group(1) + "}" : "no question";
    }

    @Test
    void byDefaultTheJudgeDecidesWhatExactMatchDoesNotSoRightAnswersInOtherWordsAreNotOutOfKnowledge() throws Exception {
        Files.writeString(dir.resolve("q.jsonl"), "{\"question\": \"what is item 1?\", \"answer\": [\"answer 1\"]}\n"
                + "{\"question\": \"what is item 2?\", \"answer\": [\"answer 2\"]}\n");
        java.util.concurrent.atomic.AtomicInteger judged = new java.util.concurrent.atomic.AtomicInteger();
        // the judge (the authors' prompt: system message, then "Question: ...\n Ground truth: ...\n Prediction: ...\n")
        // accepts "it is answer 1" for "answer 1" only
        Rule judge = Rule.of("(?s)Assume you are a human expert in grading predictions", m -> {
            judged.incrementAndGet();
            boolean ok = m.prompt().endsWith(" Ground truth: answer 1\n Prediction: it is answer 1\n");
            return "{\"explanation\": \"checked\", \"score\": " + (ok ? 1 : 0) + "}";
        });
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(judge, Rule.of("(?s)### Question",
                ProbeCommandTest::paraphrase)).build())) {
            probe(sim);
            ObjectMapper json = new ObjectMapper();
            Map<String, JsonNode> byQuestion = new TreeMap<>();
            for (String line : Files.readAllLines(dir.resolve("probe/probe.jsonl"))) {
                JsonNode n = json.readTree(line);
                byQuestion.put(n.get("question").asText(), n);
            }
            assertThat(byQuestion.get("what is item 1?").get("correct").asInt()).isEqualTo(8);
            assertThat(byQuestion.get("what is item 1?").get("ook").asBoolean()).isFalse();
            assertThat(byQuestion.get("what is item 2?").get("correct").asInt()).isZero();
            assertThat(byQuestion.get("what is item 2?").get("ook").asBoolean()).isTrue();
            // one judge call per question: its samples are the same answer, and the response cache answers the repeats
            assertThat(judged).hasValue(2);
            assertThat(Files.readAllLines(dir.resolve("probe/ook.jsonl"))).singleElement()
                    .satisfies(l -> assertThat(l).contains("what is item 2?"));
        }
    }

    @Test
    void aDryRunPrintsTheCostAndAsksNothing() throws Exception {
        Files.writeString(dir.resolve("q.jsonl"), "{\"question\": \"what is item 1?\", \"answer\": [\"x\"]}\n");
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            java.io.PrintStream old = System.err;
            System.setErr(new java.io.PrintStream(err, true));
            try {
                probe(sim, "--dry-run");
            } finally {
                System.setErr(old);
            }
            assertThat(err.toString()).contains("1 questions x 8 samples = 8 samples in 3 requests");
            assertThat(sim.counters().generationRequests()).isZero();
        }
    }

    private int cli(String... args) {
        CliRun.Result r = CliRun.run(args);
        assertThat(r.code()).as(r.err()).isZero();
        return r.code();
    }

    private static Map<String, String> byId(Path file, String field) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> out = new TreeMap<>();
        for (String line : Files.readAllLines(file)) {
            JsonNode n = json.readTree(line);
            out.put(n.get("id").asText(), n.get(field).asText());
        }
        return out;
    }
}
