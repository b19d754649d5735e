package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.eval.judge.JudgeOptions;
import dev.veracity.eval.judge.Judges;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.BoxedAnswer;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TruthRL's judged numbers in a run (issue 25, points 1 and 2): with a judge, the truthfulness metrics take
 * correctness from it in the order of the authors' evaluate.py, the boxed metric reads the raw response, and the
 * summary re-aggregates what the lines stored without asking the judge again. Scripted model and judge.
 */
class TruthRlJudgedRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** What the scripted model answers to each question: a TruthRL-style response, the answer boxed. */
    private static final Map<String, String> RESPONSES = Map.of(
            "capital of france", "<think>It is Paris.</think>\n\\boxed{Paris}",
            "who owns dreamworks animation", "<think>Universal bought it.</think>\n\\boxed{Universal}",
            "what is the secret number", "<think>No idea.</think>\n\\boxed{I don't know}",
            "when did einstein win an olympic medal", "<think>Never.</think>\n\\boxed{invalid question}",
            "capital of italy", "<think>Milan.</think>\n\\boxed{Milan}",
            "capital of spain", "<think>Madrid.</think>\nThe answer is Madrid.",
            "capital of norway", "<think>Bergen.</think>\n\\boxed{Bergen}");

    /**
     * Like TruthRL's method: the prediction is the boxed answer (the box its {@code box} option names, the last by
     * default), the whole output its raw response.
     */
    private static final QaMethod BOXER = new QaMethod() {
        @Override
        public String name() {
            return "boxer";
        }

        @Override
        public MethodSpec spec() {
            return MethodSpec.named(name()).withNeeds();
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            String out = ctx.llm().call(ctx.role("answerer", 0), LlmRequest.user("Q: " + item.question()).build()).text();
            String boxed = BoxedAnswer.extract(out, BoxedAnswer.Mode.valueOf(
                    ctx.options().getOrDefault("box", "last").toUpperCase(java.util.Locale.ROOT))).orElse("");
            return new MethodAnswer(boxed, boxed.isEmpty() ? List.of() : List.of(boxed), List.of(), Map.of(), out);
        }
    };

    private Path crag() throws Exception {
        Path f = dir.resolve("crag.jsonl");
        StringBuilder b = new StringBuilder();
        String[][] qa = {{"capital of france", "Paris"}, {"who owns dreamworks animation", "Universal Pictures"},
                {"what is the secret number", "42"}, {"when did einstein win an olympic medal", "never"},
                {"capital of italy", "Rome"}, {"capital of spain", "Madrid"}, {"capital of norway", "Oslo"}};
        for (int i = 0; i < qa.length; i++) {
            b.append("{\"interaction_id\": \"q").append(i).append("\", \"query\": \"").append(qa[i][0])
                    .append("\", \"answer\": \"").append(qa[i][1]).append("\", \"alternative_answers\": [],")
                    .append(" \"query_time\": \"03/05/2024, 23:18:31 PT\", \"question_type\": \"simple\"}\n");
        }
        Files.writeString(f, b);
        return f;
    }

    /** The judge: yes for "universal", garbage for "bergen", no otherwise (also for an exact match, were it asked). */
    private static String respond(LlmRequest r) {
        if (r.messages().getFirst().role() != ChatMessage.Role.SYSTEM) {
            return RESPONSES.getOrDefault(r.promptText().substring(3), "\\boxed{?}");
        }
        String user = r.messages().getLast().content();
        if (user.contains(" Prediction: universal\n")) {
            return "{\"explanation\": \"the same studio\", \"score\": 1}";
        }
        return user.contains(" Prediction: bergen\n") ? "I cannot tell." : "{\"explanation\": \"no\", \"score\": 0}";
    }

    @Test
    void withAJudgeTheTruthfulnessMetricsAreJudgedInTheAuthorsOrderAndReadFromTheLinesAfterwards() throws Exception {
        ScriptedBackend backend = new ScriptedBackend("scripted", true, TruthRlJudgedRunTest::respond);
        InMemoryTraces memory = new InMemoryTraces();
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(memory);
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        EvalRunner.Spec spec = new EvalRunner.Spec(BOXER, "crag", crag(), 0, dir.resolve("out"), 3,
                DatasetProfile.of("crag").withMetrics(List.of("truthfulness-answer", "truthfulness", "em")), Map.of(),
                Map.of("model", "scripted"), null, null, Judges.byName("crag", client, JudgeOptions.defaults()));

        JsonNode s = EvalRunner.run(spec, client, traces, "run-1", p -> { }).summary().toJson();

        // Paris: exact match (the judge, which says 0 to everything but "universal", is never asked);
        // Universal: the judge's yes; I don't know: abstention; invalid question on a valid question: hallucination
        // without a judge call; Milan: the judge's no; no box: hallucination; Bergen: no verdict, counted apart.
        for (String m : List.of("truthfulness-answer", "truthfulness")) {
            assertThat(s.at("/metrics_n/" + m).asInt()).as(m).isEqualTo(6);
            assertThat(s.at("/metrics/" + m + ".accuracy").asDouble()).as(m).isCloseTo(2 / 6.0, within(1e-9));
            assertThat(s.at("/metrics/" + m + ".abstention").asDouble()).as(m).isCloseTo(1 / 6.0, within(1e-9));
            assertThat(s.at("/metrics/" + m + ".hallucination").asDouble()).as(m).isCloseTo(3 / 6.0, within(1e-9));
            assertThat(s.at("/metrics/" + m + ".truthfulness").asDouble()).as(m).isCloseTo(-1 / 6.0, within(1e-9));
            assertThat(s.at("/metrics/" + m).asDouble()).as(m).isCloseTo(-1 / 6.0, within(1e-9));
            assertThat(s.at("/metrics/" + m + ".unjudged").asInt()).as(m).isEqualTo(1);
            assertThat(s.at("/metrics/" + m + ".no_box").asDouble()).as(m).isCloseTo(1 / 6.0, within(1e-9));
        }
        assertThat(s.at("/metrics/em").asDouble()).isCloseTo(1 / 7.0, within(1e-9));
        // the judge object reports the order's verdicts: correct for Paris and Universal, unparseable for Bergen
        assertThat(s.at("/judge/correct").asInt()).isEqualTo(2);
        assertThat(s.at("/judge/order").asText()).isEqualTo("truthrl");
        assertThat(s.at("/judge/incorrect").asInt()).isEqualTo(4);
        assertThat(s.at("/judge/unparseable").asInt()).isEqualTo(1);

        Map<String, JsonNode> lines = new HashMap<>();
        for (String l : Files.readAllLines(dir.resolve("out/results.jsonl"))) {
            JsonNode n = JSON.readTree(l);
            lines.put(n.get("question").asText(), n);
        }
        assertThat(decided(lines, "capital of france")).isEqualTo("correct em CORRECT");
        assertThat(decided(lines, "who owns dreamworks animation")).isEqualTo("correct judge CORRECT");
        assertThat(decided(lines, "what is the secret number")).isEqualTo("abstain abstain INCORRECT");
        assertThat(decided(lines, "when did einstein win an olympic medal")).isEqualTo("hallucinate invalid INCORRECT");
        assertThat(decided(lines, "capital of italy")).isEqualTo("hallucinate judge INCORRECT");
        assertThat(decided(lines, "capital of spain")).isEqualTo("hallucinate no_box INCORRECT");
        assertThat(decided(lines, "capital of norway")).isEqualTo("unjudged judge UNPARSEABLE");
        // the judge was asked about Universal, Milan and Bergen only, in lower case, once each: the two judged
        // metrics (over the raw response and over the answer) share its verdicts
        List<String> asked = memory.where(c -> "judge".equals(c.context().role())).stream().map(CallRecord::prompt).toList();
        assertThat(asked).hasSize(3).allSatisfy(p -> assertThat(p).containsAnyOf(" Prediction: universal\\n",
                " Prediction: milan\\n", " Prediction: bergen\\n"));

        // a second run over the same folder answers nothing and re-aggregates the stored verdicts: same numbers, no call
        long calls = backend.requests().size();
        JsonNode again = EvalRunner.run(spec, client, traces, "run-2", p -> { }).summary().toJson();
        assertThat(backend.requests()).hasSize((int) calls);
        assertThat(again.get("metrics")).isEqualTo(s.get("metrics"));
        assertThat(again.get("judge")).isEqualTo(s.get("judge"));
    }

    private static String decided(Map<String, JsonNode> lines, String question) {
        JsonNode l = lines.get(question);
        assertThat(l.at("/metrics/truthfulness.outcome")).isEqualTo(l.at("/metrics/truthfulness-answer.outcome"));
        return l.at("/metrics/truthfulness-answer.outcome").asText() + " "
                + l.at("/metrics/truthfulness-answer.decided_by").asText() + " " + l.at("/judge/outcome").asText();
    }

    @Test
    void withoutAJudgeTheBoxedMetricReadsTheRawResponseNotTheExtractedAnswer() throws Exception {
        ScriptedBackend backend = new ScriptedBackend("scripted", true, TruthRlJudgedRunTest::respond);
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        EvalRunner.Spec spec = new EvalRunner.Spec(BOXER, "crag", crag(), 0, dir.resolve("plain"), 2,
                DatasetProfile.of("crag").withMetrics(List.of("truthfulness", "truthfulness-answer")), Map.of(),
                Map.of("model", "scripted"));

        JsonNode s = EvalRunner.run(spec, client, traces, "run-1", p -> { }).summary().toJson();

        // exact match only: Paris correct, I don't know an abstention, the other five hallucinations, by either metric
        for (String m : List.of("truthfulness", "truthfulness-answer")) {
            assertThat(s.at("/metrics/" + m + ".accuracy").asDouble()).as(m).isCloseTo(1 / 7.0, within(1e-9));
            assertThat(s.at("/metrics/" + m + ".abstention").asDouble()).as(m).isCloseTo(1 / 7.0, within(1e-9));
            assertThat(s.at("/metrics/" + m + ".hallucination").asDouble()).as(m).isCloseTo(5 / 7.0, within(1e-9));
        }
        JsonNode line = JSON.readTree(Files.readAllLines(dir.resolve("plain/results.jsonl")).getFirst());
        assertThat(line.at("/metrics/truthfulness.boxed").asBoolean()).isEqualTo(!line.get("prediction").asText().isEmpty());
    }

    @Test
    void theBoxedMetricReadsTheBoxAsTheMethodsBoxOptionSaysAndEveryReaderOfTheLineAgrees() throws Exception {
        Path f = dir.resolve("one.jsonl");
        Files.writeString(f, "{\"interaction_id\": \"q0\", \"query\": \"capital of italy\", \"answer\": \"Rome\","
                + " \"alternative_answers\": [], \"query_time\": \"03/05/2024, 23:18:31 PT\"}\n");
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "\\boxed{Milan}, no: \\boxed{Rome}");
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        List<String> metrics = List.of("truthfulness", "truthfulness-answer");
        // the model boxes twice, the wrong answer first: read with box=first, the method answers Milan
        EvalRunner.Spec spec = new EvalRunner.Spec(BOXER, "crag", f, 0, dir.resolve("first"), 1,
                DatasetProfile.of("crag").withMetrics(metrics), Map.of("box", "first"), Map.of("model", "scripted"));

        JsonNode s = EvalRunner.run(spec, client, traces, "run-1", p -> { }).summary().toJson();

        // the method answered Milan (its first box): both metrics call it a hallucination, not Rome's correct
        for (String m : metrics) {
            assertThat(s.at("/metrics/" + m + ".hallucination").asDouble()).as(m).isEqualTo(1.0);
        }
        JsonNode line = JSON.readTree(Files.readAllLines(dir.resolve("first/results.jsonl")).getFirst());
        assertThat(line.at("/metrics/truthfulness.box").asText()).isEqualTo("first");
        // a reader with the registry's metric (compare, report, recipes) takes the line's reading, not the last box
        assertThat(dev.veracity.eval.metrics.LineScores.of(dev.veracity.eval.metrics.Metrics.byName("truthfulness"),
                dev.veracity.eval.results.TestLines.line(line))
                .score()).isEqualTo(-1.0);
    }
}
