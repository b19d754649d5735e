package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.methods.madam.MadamRag;
import dev.veracity.methods.madam.Transcript;
import dev.veracity.qa.QaItem;
import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MadamCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static SimServer sim(int latencyMs) {
        return SimServer.start(SimConfig.builder().rules(MadamDemo.simRules().toArray(Rule[]::new))
                .latency(LatencyModel.ofMillis(latencyMs, 0)).capacity(256).build());
    }

    @Test
    void evalOnTheFirst20RamdocsQuestionsStopsInRoundTwoWithOverlappingAgents() throws Exception {
        Path ramdocs = Shared.data("ramdocs/RAMDocs_test.jsonl");
        List<QaItem> items;
        try (Stream<QaItem> s = Datasets.stream("ramdocs", ramdocs)) {
            items = s.limit(20).toList();
        }
        InMemoryTraces store = new InMemoryTraces();
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(store);
        Path out = dir.resolve("run");
        try (SimServer sim = sim(40);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(16).traces(traces).build()) {
            EvalRunner.Spec spec = new EvalRunner.Spec(new MadamRag(), "ramdocs", ramdocs, 20, out, 2,
                    DatasetProfile.of("ramdocs"), Map.of(), Map.of("model", "sim-model"));
            EvalRunner.Outcome outcome = EvalRunner.run(spec, client, traces, "madam-test", p -> { });
            assertThat(outcome.failures()).isEmpty();
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertThat(summary.get("n").asInt()).isEqualTo(20);
        assertThat(summary.get("method").asText()).isEqualTo("madam-rag");
        for (String k : List.of("strict-multi", "strict-multi.precision", "strict-multi.recall", "strict-multi.f1")) {
            assertThat(summary.at("/metrics/" + k).isNumber()).as(k).isTrue();
        }
        assertThat(summary.at("/metrics/strict-multi").asDouble()).isGreaterThan(0.0);
        assertThat(summary.get("prompt_tokens_per_question").asDouble()).isPositive();
        assertThat(summary.get("parse_failures").asInt()).isZero();

        Map<String, List<CallRecord>> byQuestion = store.all().stream()
                .collect(Collectors.groupingBy(r -> r.context().questionId()));
        assertThat(byQuestion).hasSize(20);
        for (QaItem item : items) {
            int n = item.documents().size();
            List<CallRecord> calls = byQuestion.get(item.id());
            assertThat(calls).as(item.id()).hasSize(2 * n + 1);
            assertThat(calls.stream().filter(c -> c.context().role().equals("aggregator"))).hasSize(1);
            for (int round = 1; round <= 2 && n > 1; round++) {
                int r = round;
                List<CallRecord> agents = calls.stream().filter(c -> c.context().role().startsWith("agent-") && c.context().step() == r).toList();
                assertThat(agents).hasSize(n);
                long latestStart = agents.stream().mapToLong(CallRecord::startedMicros).max().orElseThrow();
                long earliestEnd = agents.stream().mapToLong(CallRecord::endedMicros).min().orElseThrow();
                assertThat(latestStart).as(item.id() + " round " + r + " agents overlap").isLessThan(earliestEnd);
            }
        }
        JsonNode first = JSON.readTree(Files.readAllLines(out.resolve("results.jsonl")).getFirst());
        assertThat(first.get("prediction").asText()).startsWith("All Correct Answers: [");
        assertThat(first.get("answers")).isNotEmpty();
    }

    @Test
    void demoPrintsTheDebate() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (SimServer sim = sim(0);
             OpenAiCompatibleBackend backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
             LlmClient client = LlmClient.builder(backend).concurrency(8).build()) {
            Transcript t = MadamDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), client, "demo", MadamDemo.sampleItem());
            assertThat(t.rounds()).hasSize(2);
            assertThat(t.result().answers()).containsExactly("1963");
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("-- round 1", "agent 4: 1998", "aggregator: [1963]", "-- round 2", "agents kept their answers",
                "== final: All Correct Answers: [\"1963\"]");
    }

    @Test
    void simulatedAgentsAnswerFromTheirDocument() {
        assertThat(MadamDemo.answerFrom("What is the population of Broken Bow?", "As of the census of 2010, there were 3,559 people, 1,575 households"))
                .isEqualTo("3,559 people");
        assertThat(MadamDemo.answerFrom("What is the population of Broken Bow?",
                "Historical population Census Pop. 1890 1,647 1900 1,375 ... As of the census of 2010, there were 3,559 people"))
                .isEqualTo("3,559 people");
        assertThat(MadamDemo.answerFrom("Who directed Lahu Ke Do Rang?", "Lahu Ke Do Rang is a film directed by Mahesh Bhatt."))
                .isEqualTo("Mahesh Bhatt");
        assertThat(MadamDemo.answerFrom("When was X born?", "nothing here")).isNull();
    }

    @Test
    void ramdocsBuildWritesDeterministicRecords() throws Exception {
        Path src = dir.resolve("src.jsonl");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            sb.append("{\"question\": \"When was Town").append(i).append(" founded?\", \"answers\": [{\"answer\": \"")
                    .append(1800 + i).append("\", \"documents\": [\"Town").append(i).append(" was founded in ").append(1800 + i)
                    .append(".\", \"Since ").append(1800 + i).append(" it stands.\"]}, {\"answer\": \"").append(1900 + i)
                    .append("\", \"documents\": [\"Another Town").append(i).append(" dates from ").append(1900 + i).append(".\"]}]}\n");
        }
        Files.writeString(src, sb.toString());
        Path a = dir.resolve("a.jsonl");
        Path b = dir.resolve("b.jsonl");
        assertThat(new CommandLine(new RamdocsCommand()).execute("build", "--source", src.toString(), "--out", a.toString(), "--seed", "3")).isZero();
        assertThat(new CommandLine(new RamdocsCommand()).execute("build", "--source", src.toString(), "--out", b.toString(), "--seed", "3")).isZero();
        assertThat(Files.readString(a)).isEqualTo(Files.readString(b));
        List<String> lines = Files.readAllLines(a);
        assertThat(lines).hasSize(6);
        JsonNode r = JSON.readTree(lines.getFirst());
        assertThat(r.has("gold_answers")).isTrue();
        assertThat(r.get("documents").get(0).get("type").asText()).isEqualTo("correct");
        // and the loader reads it back as RAMDocs
        try (Stream<QaItem> s = Datasets.stream("ramdocs", a)) {
            assertThat(s.count()).isEqualTo(6);
        }
        Path c = dir.resolve("c.jsonl");
        assertThat(new CommandLine(new RamdocsCommand()).execute("build", "--source", src.toString(), "--out", c.toString(),
                "--mode", "misinformation", "--level", "1")).isZero();
        assertThat(Files.readAllLines(c)).allMatch(l -> l.contains("\"misinfo\""));
        // no question has an answer with 3 documents: refused with the reason, no empty file
        Path d = dir.resolve("d.jsonl");
        CliRun.Result refused = CliRun.run("ramdocs", "build", "--source", src.toString(), "--out", d.toString(), "--mode",
                "imbalance", "--level", "3");
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("no record built").contains("imbalance").contains("--level");
        assertThat(d).doesNotExist();
    }

    @Test
    void benchPrintsBothWallTimesAndTheRatio() {
        CliRun.Result r = CliRun.run("bench", "madam", "--questions", "3", "--latency-ms", "30", "--no-process");
        assertThat(r.code()).isZero();
        String text = r.out();
        System.out.println(text);
        assertThat(text).contains("sequential calls (the authors' loop", "questions and agents concurrent", "ideal:");
        // MADAM-RAG's rounds: at least agents then aggregator, one after the other
        java.util.regex.Matcher chain = java.util.regex.Pattern.compile("critical path: (\\d+) dependent calls").matcher(text);
        assertThat(chain.find()).isTrue();
        assertThat(Integer.parseInt(chain.group(1))).isBetween(2, 2 * 3);
    }

    @Test
    void theLongestChainCountsCallsThatWaitedForEachOther() {
        // two concurrent agents (0-100), an aggregator after both (100-200), then another agent (200-300)
        java.util.List<dev.veracity.trace.CallRecord> calls = java.util.List.of(rec("q", 0, 100), rec("q", 1, 100),
                rec("q", 100, 200), rec("q", 200, 300), rec("other", 0, 100));
        assertThat(dev.veracity.trace.CallStats.longestChain(calls)).isEqualTo(3);
        assertThat(dev.veracity.trace.CallStats.longestChain(java.util.List.of(rec("q", 0, 100), rec("q", 50, 150)))).isEqualTo(1);
    }

    private static dev.veracity.trace.CallRecord rec(String question, long submitted, long ended) {
        return new dev.veracity.trace.CallRecord("c" + question + submitted, dev.veracity.trace.CallContext.of("r", question, "m"),
                "b", "m", "p", "{}", java.util.List.of("x"), java.util.List.of("stop"), 1, 1, 1, 0, 0, 0, 0, submitted, submitted,
                ended, false, 1, 0, null);
    }
}
