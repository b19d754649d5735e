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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A MADAM-RAG run's calls as agent records, then what a trainer would learn from them. */
class RlRecordsCommandTest {

    @TempDir
    Path dir;

    private String run(String... args) {
        CliRun.Result r = CliRun.run(args);
        assertThat(r.code()).as(r.err()).isZero();
        return r.out();
    }

    @Test
    void everyTracedCallBecomesOneRecordPerSampleWithItsQuestionsOutcome() throws Exception {
        Path data = dir.resolve("ramdocs.jsonl");
        try (var in = MethodsDemo.class.getResourceAsStream(MethodsDemo.DATA)) {
            Files.write(data, new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().limit(3).toList());
        }
        Path out = dir.resolve("madam");
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
            run("eval", "--method", "madam-rag", "--dataset", "ramdocs", "--data", data.toString(), "--out", out.toString(),
                    "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off");
        }
        run("rl", "records", "--from", out.toString(), "--reward", "metric:strict-multi", "--out",
                dir.resolve("records.jsonl").toString());
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> records = new ArrayList<>();
        for (String l : Files.readAllLines(dir.resolve("records.jsonl"))) {
            records.add(json.readTree(l));
        }
        List<JsonNode> results = new ArrayList<>();
        for (String l : Files.readAllLines(out.resolve("results.jsonl"))) {
            results.add(json.readTree(l));
        }
        // one record per call (greedy: one sample each), the question's calls as the result line counts them
        int calls = results.stream().mapToInt(r -> r.get("calls").asInt()).sum();
        assertThat(records).hasSize(calls);
        Set<String> roles = new HashSet<>();
        for (JsonNode r : records) {
            roles.add(r.get("role").asText());
            assertThat(r.get("method").asText()).isEqualTo("madam-rag");
            JsonNode line = results.stream().filter(x -> x.get("id").asText().equals(r.get("question_id").asText()))
                    .findFirst().orElseThrow();
            assertThat(r.get("reward").asDouble()).isEqualTo(line.at("/metrics/strict-multi").asDouble());
            assertThat(r.at("/messages/0/role").asText()).isEqualTo("user");
            assertThat(r.get("response").asText()).isNotEmpty();
        }
        assertThat(roles).contains("aggregator").anyMatch(x -> x.startsWith("agent-"));
        // round 1's agents ran at once: no parent; the aggregator follows an agent
        assertThat(records.stream().filter(r -> r.get("role").asText().equals("aggregator")))
                .allSatisfy(r -> assertThat(r.get("parent_id").isNull()).isFalse());

        String inspect = run("rl", "inspect", dir.resolve("records.jsonl").toString(), "--html", dir.resolve("html").toString());
        assertThat(inspect).contains("aggregator").contains("no signal").contains("verl / trl / openrlhf");
        assertThat(dir.resolve("html/index.html")).exists();
    }
}
