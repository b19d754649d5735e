package dev.veracity.eval.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.veracity.eval.judge.JudgeOptions;
import dev.veracity.eval.judge.Judges;
import dev.veracity.eval.report.RunDir;
import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.eval.run.EvalRunner;
import dev.veracity.eval.run.ResultsFile;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.AgentRecord;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;
import dev.veracity.schema.SchemaVersion;
import dev.veracity.trace.InMemoryTraces;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Answers with the model's reply, two agents' candidates and a signal; the raw output differs from the answer. */
    /** An agent's answer as a method that chooses among agents reports it (the Court's Candidate's shape). */
    record Agent(String agent, String answer, int steps, boolean forced, String note) {
    }

    private static final dev.veracity.method.DetailKey<List<Agent>> AGENTS =
            dev.veracity.method.DetailKey.listOf("candidates", Agent.class);
    private static final dev.veracity.method.DetailKey<Integer> VOTES = dev.veracity.method.DetailKey.of("votes", Integer.class);

    private static final QaMethod CANDIDATES = new QaMethod() {
        @Override
        public String name() {
            return "candidates";
        }

        @Override
        public dev.veracity.method.MethodSpec spec() {
            return dev.veracity.method.MethodSpec.named("candidates").withNeeds(); // closed book
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            String out = ctx.llm().call(ctx.role("answerer", 0), LlmRequest.user("Q: " + item.question()).build()).text();
            return new MethodAnswer(out.strip(), List.of(), List.of("one output could not be read"),
                    Map.of("agreed", 1.0), "Answer: " + out)
                    .withDetail(AGENTS, List.of(new Agent("agent-1", out, 2, false, ""),
                            new Agent("agent-2", "Lyon", 3, true, "forced")))
                    .withDetail(VOTES, 2); // a plug-in's own detail: under "details"
        }
    };

    private Path eval() throws Exception {
        Path data = dir.resolve("nq.jsonl");
        Files.writeString(data, """
                {"question": "capital of france", "answer": ["Paris"]}
                {"question": "capital of italy", "answer": ["Rome"]}
                """);
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            String p = r.promptText();
            if (p.startsWith("Q: ")) {
                return p.contains("france") ? "Paris" : "Milan";
            }
            return p.contains("Prediction: Paris") ? "{\"explanation\": \"same\", \"score\": 1}" : "I cannot say.";
        });
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        RunConfiguration config = new RunConfiguration(null, "candidates", Map.of("samples", "1"), "nq-open",
                data.toString(), "ab12", null, List.of("nq-em", "nq-f1"), "scripted", "http://127.0.0.1:1/v1", "none",
                null, null, null, "crag model=scripted samples=1 prompt=authors");
        ResultsJson.write(out.resolve("run.json"), config);
        EvalRunner.Spec spec = new EvalRunner.Spec(CANDIDATES, "nq-open", data, 0, out, 2, DatasetProfile.of("nq-open"),
                Map.of(), EvalRunner.labels("model", "scripted", "llm_base_url", "http://127.0.0.1:1/v1",
                "concurrency", "4", "timeout_seconds", "60", "cache", "off"), null, null,
                Judges.byName("crag", client, JudgeOptions.defaults()), null, config);
        EvalRunner.Outcome o = EvalRunner.run(spec, client, traces, "run-1", p -> { });
        assertThat(o.failures()).isEmpty();
        // an agent record, as MARCH's eval writes them beside the results
        AgentRecord record = AgentRecord.of("out", "q0", "march", "solver", "solver-0", null,
                List.of(ChatMessage.user("Q: capital of france")), "Paris", 1.0);
        Files.writeString(out.resolve("march-records.jsonl"), record.toJson() + "\n");
        return out;
    }

    @Test
    void everyFileASmallEvalWritesValidatesAgainstItsSchemaAndCarriesTheVersion() throws Exception {
        Path out = eval();

        assertThat(SchemaFiles.checkRunFolder(out)).isEmpty();
        for (String file : List.of("summary.json", "run.json")) {
            assertThat(JSON.readTree(out.resolve(file).toFile()).path("schema_version").asInt()).as(file)
                    .isEqualTo(SchemaVersion.CURRENT);
        }
        List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
        assertThat(lines).hasSize(2).allSatisfy(l -> assertThat(JSON.readTree(l).path("schema_version").asInt())
                .isEqualTo(SchemaVersion.CURRENT));
        JsonNode line = JSON.readTree(lines.getFirst());
        assertThat(line.path("candidates")).hasSize(2); // the nested records were written, and validated
        assertThat(line.path("candidates").get(1).path("note").asText()).isEqualTo("forced");
        assertThat(line.path("details").path("votes").asInt()).as("a plug-in's detail").isEqualTo(2);
        assertThat(line.path("details").has("candidates")).as("the Court's in their own field only").isFalse();
        assertThat(line.path("judge").path("outcome").isTextual()).isTrue();
        assertThat(line.path("calls").isIntegralNumber()).isTrue();
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertThat(summary.path("concurrency").isIntegralNumber()).as("a number, not a string").isTrue();
        assertThat(summary.path("config").path("method").asText()).isEqualTo("candidates");
        assertThat(summary.path("judge_scenarios").path("one_correct").path("cases").asInt()).isEqualTo(1);
        // and the readers read them through the types
        RunDir run = RunDir.load(out);
        assertThat(run.method()).isEqualTo("candidates");
        assertThat(run.summary().config().dataSha256()).isEqualTo("ab12");
        assertThat(run.answered()).isEqualTo(2);
    }

    @Test
    void aWrongFileFailsValidation() throws Exception {
        Path out = eval();
        ObjectMapper m = new ObjectMapper();
        var summary = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(out.resolve("summary.json").toFile());
        summary.put("n", "two");
        Files.writeString(out.resolve("summary.json"), summary.toString());
        var line = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(
                Files.readAllLines(out.resolve("results.jsonl")).getFirst());
        line.put("predicton", "a misspelt field");
        Files.writeString(out.resolve("results.jsonl"), line + "\n");
        Files.writeString(out.resolve("march-records.jsonl"), "{\"question_id\": \"q0\", \"role\": \"solver\"}\n");
        Files.writeString(out.resolve("run.json"), "{\"method\": \"candidates\", \"dataset\": \"nq-open\"}");

        assertThat(SchemaFiles.checkRunFolder(out))
                .anyMatch(e -> e.startsWith(SchemaFiles.SUMMARY) && e.contains("n"))
                .anyMatch(e -> e.startsWith(SchemaFiles.RESULTS_LINE) && e.contains("predicton"))
                .anyMatch(e -> e.startsWith(SchemaFiles.AGENT_RECORD) && e.contains("node_id"))
                .anyMatch(e -> e.startsWith(SchemaFiles.RUN) && e.contains("metrics"));
    }

    @Test
    void eachSchemaNamesExactlyTheFieldsOfItsRecord() throws Exception {
        assertAgree(ResultLine.class, schema(SchemaFiles.RESULTS_LINE));
        assertAgree(Summary.class, schema(SchemaFiles.SUMMARY));
        assertAgree(RunConfiguration.class, schema(SchemaFiles.RUN));
        JsonNode line = schema(SchemaFiles.RESULTS_LINE).path("properties");
        assertAgree(ResultLine.Role.class, line.path("roles").path("additionalProperties"));
        assertAgree(ResultLine.Cut.class, line.path("truncated"));
        assertAgree(ResultLine.Candidate.class, line.path("candidates").path("items"));
        assertAgree(ResultLine.Retrieval.class, line.path("retrieval"));
        assertAgree(ResultLine.Judge.class, line.path("judge"));
        JsonNode summary = schema(SchemaFiles.SUMMARY).path("properties");
        assertAgree(Summary.Judge.class, summary.path("judge"));
        assertAgree(Summary.Role.class, summary.path("roles").path("additionalProperties"));
        assertAgree(Summary.Truncated.class, summary.path("truncated"));
        assertAgree(Summary.Retrieval.class, summary.path("retrieval"));
        assertAgree(Summary.AdaptiveLimit.class, summary.path("concurrency_limit"));
        assertAgree(Summary.Endpoint.class, summary.path("endpoints").path("items"));
        assertAgree(Summary.Scenarios.class, summary.path("judge_scenarios"));
        assertAgree(Summary.Scenario.class, summary.path("judge_scenarios").path("properties").path("one_correct"));
        assertAgree(dev.veracity.method.RolloutTree.class, schema(SchemaFiles.ROLLOUT_TREE));
        JsonNode tree = schema(SchemaFiles.ROLLOUT_TREE).path("properties");
        assertAgree(dev.veracity.method.RolloutTree.Node.class, tree.path("nodes").path("items"));
        assertAgree(dev.veracity.method.RolloutTree.Calls.class, tree.path("calls"));
        // the agent record's fields, as written (AgentRecord.toJson), are the schema's
        Set<String> written = new LinkedHashSet<>();
        new AgentRecord("r", "q", "m", "role", "n", "p", List.of(ChatMessage.user("x")), "y", 1.0, 0.5, 0.1,
                List.of(1), List.of(2), List.of(-0.5)).toJson().fieldNames().forEachRemaining(written::add);
        assertThat(written).containsExactlyInAnyOrderElementsOf(names(schema(SchemaFiles.AGENT_RECORD)));
        // and the fields it requires are the ones the reader refuses a line without (AgentRecord.REQUIRED)
        List<String> required = new java.util.ArrayList<>();
        schema(SchemaFiles.AGENT_RECORD).path("required").forEach(r -> required.add(r.asText()));
        assertThat(required).containsExactlyInAnyOrderElementsOf(AgentRecord.REQUIRED);
    }

    @Test
    void aFileOfANewerSchemaIsRefusedInOneLineAndOneWithoutAVersionReadsAsVersion1() throws Exception {
        Path out = eval();
        var summary = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(out.resolve("summary.json").toFile());
        summary.put("schema_version", SchemaVersion.CURRENT + 1);
        Files.writeString(out.resolve("summary.json"), summary.toString());
        assertThatThrownBy(() -> RunDir.load(out)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema_version " + (SchemaVersion.CURRENT + 1))
                .hasMessageContaining("newer than this Veracity reads").hasMessageNotContaining("\n");
        Path results = out.resolve("results.jsonl");
        Files.writeString(results, "{\"schema_version\": 2, \"id\": \"q\", \"prediction\": \"x\"}\n");
        assertThatThrownBy(() -> ResultsFile.open(results)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("results.jsonl:1 has schema_version 2");
        assertThatThrownBy(() -> AgentRecord.fromJson(JSON.readTree(
                "{\"schema_version\": 2, \"question_id\": \"q\", \"role\": \"r\", \"node_id\": \"n\"}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("newer");
        summary.remove("schema_version");
        Files.writeString(out.resolve("summary.json"), summary.toString());
        Files.writeString(results, "{\"id\": \"q\", \"prediction\": \"x\", \"gold\": [\"x\"]}\n");
        assertThat(RunDir.load(out).method()).isEqualTo("candidates"); // version 1's shape: read
        assertThat(SchemaFiles.checkRunFolder(out)).noneMatch(e -> e.startsWith(SchemaFiles.SUMMARY));
    }

    private static JsonNode schema(String name) throws Exception {
        return JSON.readTree(SchemaFiles.folder().resolve(name).toFile());
    }

    private static Set<String> names(JsonNode schema) {
        Set<String> out = new LinkedHashSet<>();
        schema.path("properties").fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static void assertAgree(Class<? extends Record> type, JsonNode schema) {
        PropertyNamingStrategies.NamingBase snake = (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;
        boolean snakeCase = type.isAnnotationPresent(com.fasterxml.jackson.databind.annotation.JsonNaming.class);
        List<String> fields = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName)
                .map(n -> snakeCase ? snake.translate(n) : n).toList();
        assertThat(fields).as(type.getSimpleName()).containsExactlyInAnyOrderElementsOf(names(schema));
    }
}
