package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.TestLines;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.eval.judge.JudgeOptions;
import dev.veracity.eval.judge.Judges;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.DetailKey;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.InMemoryTraces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalRunnerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Answers with the model's reply to the bare question, reporting one signal. */
    private static final QaMethod ECHO = new QaMethod() {
        @Override
        public String name() {
            return "echo";
        }

        @Override
        public MethodSpec spec() {
            return MethodSpec.named(name()).withNeeds(); // closed book: nq-open has no passages and these tests give no index
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            String out = ctx.llm().call(ctx.role("answerer", 0), LlmRequest.user("Q: " + item.question()).build()).text();
            return new MethodAnswer(out, List.of(out), List.of(), Map.of("length", (double) out.length()));
        }
    };

    /** A closed-book method (nq-open gives no passages) named {@code name} that answers as {@code answer} does. */
    private static QaMethod closedBook(String name, java.util.function.BiFunction<QaItem, MethodContext, MethodAnswer> answer) {
        return new QaMethod() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public MethodSpec spec() {
                return MethodSpec.named(name()).withNeeds();
            }

            @Override
            public MethodAnswer answer(QaItem item, MethodContext ctx) {
                return answer.apply(item, ctx);
            }
        };
    }

    /** Six nq-open questions, q0 to q5, each answered "a". */
    private Path sixQuestions() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int q = 0; q < 6; q++) {
            sb.append("{\"question\": \"q").append(q).append("\", \"answer\": [\"a\"]}\n");
        }
        return Files.writeString(dir.resolve("six.jsonl"), sb.toString());
    }

    private Path nq() throws Exception {
        Path f = dir.resolve("nq.jsonl");
        Files.writeString(f, """
                {"question": "capital of france", "answer": ["Paris"]}
                {"question": "capital of italy", "answer": ["Rome"]}
                {"question": "capital of spain", "answer": ["Madrid"]}
                """);
        return f;
    }

    @Test
    void scoresWithTheDatasetsMetricsAndAJudgeCountingUnparseableVerdictsApart() throws Exception {
        // The model answers Paris, Milan, Madrid; the judge says 1 for Paris, 0 for Milan, garbage for Madrid.
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            String p = r.promptText();
            if (p.startsWith("Q: ")) {
                return p.contains("france") ? "Paris" : p.contains("italy") ? "Milan" : "Madrid";
            }
            if (p.contains("Prediction: Paris")) {
                return "{\"explanation\": \"same\", \"score\": 1}";
            }
            return p.contains("Prediction: Milan") ? "{\"explanation\": \"different\", \"score\": 0}" : "I cannot say.";
        });
        InMemoryTraces memory = new InMemoryTraces();
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(memory);
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        EvalRunner.Spec spec = new EvalRunner.Spec(ECHO, "nq-open", nq(), 0, dir.resolve("out"), 2,
                DatasetProfile.of("nq-open"), Map.of(), Map.of("model", "scripted"), null, null,
                Judges.byName("crag", client, JudgeOptions.defaults()));

        EvalRunner.Outcome outcome = EvalRunner.run(spec, client, traces, "run-1", p -> { });

        assertThat(outcome.answered()).isEqualTo(3);
        JsonNode s = outcome.summary().toJson();
        assertThat(s.at("/metrics/nq-em").asDouble()).isEqualTo(2.0 / 3);
        assertThat(s.at("/judge/correct").asInt()).isEqualTo(1);
        assertThat(s.at("/judge/incorrect").asInt()).isEqualTo(1);
        assertThat(s.at("/judge/unparseable").asInt()).isEqualTo(1);
        assertThat(s.at("/judge/accuracy").asDouble()).isEqualTo(0.5);
        assertThat(s.at("/judge/parsed").asInt()).isEqualTo(2);
        assertThat(s.at("/judge/n").asInt()).isEqualTo(3);
        assertThat(s.at("/metrics_n/nq-em").asInt()).isEqualTo(3);
        assertThat(s.at("/signals/length").asDouble()).isEqualTo((5 + 5 + 6) / 3.0);
        // The judge's calls are traced but are the evaluation's, not the method's: a question costs its method 1 call.
        assertThat(s.get("calls_per_question").asDouble()).isEqualTo(1.0);
        List<JsonNode> lines = Files.readAllLines(dir.resolve("out/results.jsonl")).stream().map(l -> {
            try {
                return JSON.readTree(l);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }).toList();
        assertThat(lines).hasSize(3).allSatisfy(l -> {
            assertThat(l.get("trace_run").asText()).isEqualTo("run-1");
            assertThat(l.get("calls").asInt()).isEqualTo(1);
            assertThat(l.at("/judge/name").asText()).isEqualTo("crag");
        });
        assertThat(memory.where(c -> c.context().role().equals("judge"))).hasSize(3);
        assertThat(JSON.readTree(dir.resolve("out/summary.json").toFile()).get("n").asInt()).isEqualTo(3);
    }

    /** One agent's answer, a detail a method defines for itself (as the Court's candidates). */
    record Pick(String agent, String answer) {
    }

    /** The agents' answers: the result line's {@code candidates}, which the judge scenarios read. */
    static final DetailKey<List<Pick>> PICKS = DetailKey.listOf("candidates", Pick.class);

    /** Two agents asked concurrently, then a judge that sees their answers: as Reasoning Court's shape. */
    private static final QaMethod COURT_LIKE = new QaMethod() {
        @Override
        public String name() {
            return "court-like";
        }

        @Override
        public MethodSpec spec() {
            return MethodSpec.named(name()).withNeeds();
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            List<String> answers = dev.veracity.concurrent.Parallel.map(List.of(1, 2), k -> ctx.llm().call(
                    ctx.role("agent-" + k, 1), LlmRequest.user("agent " + k + ": " + item.question()).build()).text());
            String verdict = ctx.llm().call(ctx.role("judge", 0), LlmRequest.user("judge: " + item.question() + " | "
                    + String.join(" | ", answers)).build()).text();
            return new MethodAnswer(verdict, List.of(verdict), List.of()).withDetail(PICKS,
                    List.of(new Pick("agent-1", answers.get(0)), new Pick("agent-2", answers.get(1))));
        }
    };

    @Test
    void callsPerRoleAndTheJudgeScenariosOfTable3() throws Exception {
        Path f = dir.resolve("nq4.jsonl");
        Files.writeString(f, """
                {"question": "capital of france", "answer": ["Paris"]}
                {"question": "capital of italy", "answer": ["Rome"]}
                {"question": "capital of spain", "answer": ["Madrid"]}
                {"question": "capital of germany", "answer": ["Berlin"]}
                """);
        // agents: one right (france), both wrong and different (italy), both wrong alike (spain), both right (germany)
        Map<String, List<String>> agents = Map.of("france", List.of("Paris", "Lyon"), "italy", List.of("Milan", "Turin"),
                "spain", List.of("Barcelona", "Barcelona"), "germany", List.of("Berlin", "Berlin"));
        Map<String, String> judge = Map.of("france", "Paris", "italy", "Rome", "spain", "Barcelona", "germany", "Berlin");
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            String p = r.promptText();
            String country = p.replaceAll("(?s).*capital of (\\w+).*", "$1");
            return p.startsWith("judge: ") ? judge.get(country)
                    : agents.get(country).get(Integer.parseInt(p.substring(6, 7)) - 1);
        });
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        EvalRunner.Outcome o = EvalRunner.run(new EvalRunner.Spec(COURT_LIKE, "nq-open", f, 0, dir.resolve("court"), 2,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "c", p -> { });

        JsonNode s = o.summary().toJson();
        assertThat(s.at("/roles/agent-1/calls_per_question").asDouble()).isEqualTo(1.0);
        assertThat(s.at("/roles/agent-2/calls_per_question").asDouble()).isEqualTo(1.0);
        assertThat(s.at("/roles/judge/calls_per_question").asDouble()).isEqualTo(1.0);
        assertThat(s.at("/judge_scenarios/metric").asText()).isEqualTo("nq-em");
        assertThat(s.at("/judge_scenarios/one_correct/cases").asInt()).isEqualTo(1);
        assertThat(s.at("/judge_scenarios/one_correct/correct").asInt()).isEqualTo(1);
        assertThat(s.at("/judge_scenarios/all_wrong_different/cases").asInt()).isEqualTo(1);
        assertThat(s.at("/judge_scenarios/all_wrong_different/accuracy").asDouble()).isEqualTo(1.0);
        assertThat(s.at("/judge_scenarios/all_wrong_same/cases").asInt()).isEqualTo(1);
        assertThat(s.at("/judge_scenarios/all_wrong_same/correct").asInt()).isZero();
        assertThat(s.at("/judge_scenarios/all_correct/cases").asInt()).isEqualTo(1);
        JsonNode spain = Files.readAllLines(dir.resolve("court/results.jsonl")).stream().map(l -> {
            try {
                return JSON.readTree(l);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }).filter(l -> l.get("question").asText().contains("spain")).findFirst().orElseThrow();
        assertThat(spain.at("/roles/agent-1/calls").asInt()).isEqualTo(1);
        assertThat(spain.at("/roles/judge/seconds").isNumber()).isTrue();
        assertThat(spain.at("/candidates/1/answer").asText()).isEqualTo("Barcelona");
        assertThat(spain.at("/candidates/0/agent").asText()).isEqualTo("agent-1");

        Path index = dev.veracity.eval.report.HtmlReport.write(List.of(dir.resolve("court")), dir.resolve("report"));
        String html = Files.readString(index);
        assertThat(html).contains("Calls and time per question, by role").contains("<td>agent-2</td>")
                .contains("Judge scenarios").contains("all wrong with the same answer (third scenario)");
    }

    @Test
    void aSecondRunAnswersOnlyWhatTheFileLacks() throws Exception {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "Paris");
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        Path data = nq();
        EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", data, 2, dir.resolve("out"), 1, DatasetProfile.of("nq-open"),
                Map.of(), Map.of()), client, traces, "a", p -> { });
        int before = backend.requests().size();

        EvalRunner.Outcome again = EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", data, 3, dir.resolve("out"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "b", p -> { });

        assertThat(again.alreadyDone()).isEqualTo(2);
        assertThat(again.answered()).isEqualTo(1);
        assertThat(backend.requests().size() - before).isEqualTo(1);
        assertThat(Files.readAllLines(dir.resolve("out/results.jsonl"))).hasSize(3);
    }

    @Test
    void anOutOfMemoryErrorInAQuestionIsTheRunsErrorNotAFailedRowOrALostQuestion() throws Exception {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "Paris");
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        QaMethod exhausts = closedBook("exhausts", (item, ctx) -> {
            if (item.question().contains("italy")) {
                throw new OutOfMemoryError("Java heap space");
            }
            return ECHO.answer(item, ctx);
        });
        // one question at a time: the error stops the questions after it from being asked
        assertThatThrownBy(() -> EvalRunner.run(new EvalRunner.Spec(exhausts, "nq-open", nq(), 0, dir.resolve("oom"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "a", p -> { }))
                .isInstanceOf(OutOfMemoryError.class).hasMessage("Java heap space");
        // no row claims the question failed for a reason of its own: the next run asks it again
        assertThat(Files.readAllLines(dir.resolve("oom/results.jsonl"))).singleElement().asString()
                .contains("capital of france");
    }

    @Test
    void theSummaryRecordsTheSliceItsRunWasAskedToAnswer() throws Exception {
        // what a recipe table judges a run by, whichever command made it: its --limit and its question count
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "Paris");
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        Path data = nq();
        JsonNode limited = EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", data, 2, dir.resolve("out"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "a", p -> { }).summary().toJson();
        assertThat(limited.get("limit").asInt()).isEqualTo(2);
        assertThat(limited.get("questions").asInt()).isEqualTo(2);
        JsonNode whole = EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", data, 0, dir.resolve("out"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "b", p -> { }).summary().toJson();
        assertThat(whole.has("limit")).isFalse();
        assertThat(whole.get("questions").asInt()).isEqualTo(3);
        assertThat(whole.get("n").asInt()).isEqualTo(3);
        assertThat(JSON.readTree(dir.resolve("out/summary.json").toFile()).get("questions").asInt()).isEqualTo(3);
    }

    @Test
    void aQuestionThatFailedIsARowWithItsReasonAndTheNextRunAsksItAgain() throws Exception {
        // the model fails for good on italy in the first run, then works
        java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean(true);
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            if (broken.get() && r.promptText().contains("italy")) {
                throw new dev.veracity.llm.LlmException(dev.veracity.llm.ErrorKind.BAD_REQUEST, "context length exceeded");
            }
            return r.promptText().contains("italy") ? "Rome" : "Paris";
        });
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        Path data = nq();
        EvalRunner.Outcome first = EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", data, 3, dir.resolve("out"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "a", p -> { });
        assertThat(first.failures()).singleElement().asString().contains("context length exceeded");
        assertThat(first.summary().toJson().get("failed").asInt()).isEqualTo(1);
        assertThat(first.summary().toJson().get("n").asInt()).isEqualTo(2); // scored over the answered questions only
        List<JsonNode> rows = Files.readAllLines(dir.resolve("out/results.jsonl")).stream().map(l -> {
            try {
                return JSON.readTree(l);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        assertThat(rows).filteredOn(r -> r.has("failed")).singleElement()
                .satisfies(r -> assertThat(r.get("failed").asText()).contains("context length exceeded"))
                .satisfies(r -> assertThat(r.get("failed_kind").asText()).isEqualTo("BAD_REQUEST"));
        assertThat(dev.veracity.eval.report.RunDir.load(dir.resolve("out")).failed()).hasSize(1);

        broken.set(false);
        EvalRunner.Outcome again = EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", data, 3, dir.resolve("out"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "b", p -> { });
        assertThat(again.answered()).isEqualTo(1);
        assertThat(again.summary().toJson().get("failed").asInt()).isZero();
        assertThat(again.summary().toJson().get("n").asInt()).isEqualTo(3);
        assertThat(dev.veracity.eval.report.RunDir.load(dir.resolve("out")).failed()).isEmpty();
    }

    @Test
    void eachLineRecordsItsQuestionsPlaceInTheDatasetWhateverOrderTheQuestionsFinishIn() throws Exception {
        // france (the first question) answers only after italy and spain were asked, so it finishes last or near it;
        // a failed question's record says its place too
        java.util.concurrent.CountDownLatch others = new java.util.concurrent.CountDownLatch(2);
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            String p = r.promptText();
            if (p.contains("france")) {
                try {
                    others.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "Paris";
            }
            others.countDown();
            if (p.contains("spain")) {
                throw new dev.veracity.llm.LlmException(dev.veracity.llm.ErrorKind.BAD_REQUEST, "context length exceeded");
            }
            return "Rome";
        });
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", nq(), 0, dir.resolve("out"), 3,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "a", p -> { });
        Map<String, Integer> positions = new java.util.HashMap<>();
        for (String l : Files.readAllLines(dir.resolve("out/results.jsonl"))) {
            JsonNode row = JSON.readTree(l);
            positions.put(row.get("question").asText(), row.path("position").isInt() ? row.get("position").asInt() : null);
        }
        assertThat(positions).containsExactlyInAnyOrderEntriesOf(Map.of("capital of france", 0, "capital of italy", 1,
                "capital of spain", 2));
    }

    @Test
    void aServerThatDoesNotAnswerStopsTheRunAfterFiveQuestionsInARow() throws Exception {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            throw new dev.veracity.llm.LlmException(dev.veracity.llm.ErrorKind.CONNECTION, "connection refused");
        });
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).retry(new dev.veracity.llm.client.RetrySettings(1,
                java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(1), 1.0, 0.0, java.time.Duration.ofSeconds(1))).build();
        Path data = dir.resolve("many.jsonl");
        StringBuilder sb = new StringBuilder();
        for (int q = 0; q < 40; q++) {
            sb.append("{\"question\": \"q").append(q).append("\", \"answer\": [\"a\"]}\n");
        }
        Files.writeString(data, sb.toString());
        EvalRunner.Outcome o = EvalRunner.run(new EvalRunner.Spec(ECHO, "nq-open", data, 0, dir.resolve("down"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "a", p -> { });
        assertThat(backend.requests()).hasSize(EvalRunner.STOP_AFTER_UNREACHABLE); // not 40
        assertThat(o.answered()).isZero();
        assertThat(o.failures().getLast()).contains("stopped after 5").contains("resume");
        assertThat(o.summary().toJson().get("stopped").asText()).isEqualTo("server unreachable");
    }

    @Test
    void aPartialLastLineLeftByAKillIsCutOff() throws Exception {
        Path results = dir.resolve("r.jsonl");
        Files.writeString(results, "{\"id\": \"a\", \"prediction\": \"x\"}\n{\"id\": \"b\", \"predic");
        try (ResultsFile f = ResultsFile.open(results)) {
            assertThat(f.isDone("a")).isTrue();
            assertThat(f.isDone("b")).isFalse();
            assertThat(f.truncatedBytes()).isPositive();
            assertThat(f.append(TestLines.line("{\"id\": \"b\"}"))).isTrue();
            assertThat(f.append(TestLines.line("{\"id\": \"a\"}"))).isFalse();
        }
        assertThat(Files.readAllLines(results)).containsExactly("{\"id\": \"a\", \"prediction\": \"x\"}", "{\"schema_version\":1,\"id\":\"b\"}");
    }

    @Test
    void aJudgeWithNoParsedVerdictHasNoAccuracyAndAMetricOverNoQuestionIsNull() throws Exception {
        EvalRunner.Spec spec = new EvalRunner.Spec(ECHO, "nq-open", nq(), 0, dir.resolve("out"), 1,
                DatasetProfile.of("nq-open").withMetrics(List.of("nq-em", "substring:strict")), Map.of(), Map.of());
        List<ResultLine> lines = TestLines.of(
                ("{\"id\": \"a\", \"prediction\": \"x\", \"gold\": [\"\"], \"wrong\": [],"
                        + " \"judge\": {\"name\": \"crag\", \"outcome\": \"UNPARSEABLE\", \"unparseable_samples\": 1}}"),
                ("{\"id\": \"b\", \"prediction\": \"y\", \"gold\": [\"\"], \"wrong\": [],"
                        + " \"judge\": {\"name\": \"crag\", \"outcome\": \"UNPARSEABLE\", \"unparseable_samples\": 1}}"));
        List<dev.veracity.eval.metrics.Metric> metrics = spec.profile().metrics().stream()
                .map(dev.veracity.eval.metrics.Metrics::byName).toList();

        JsonNode s = EvalRunner.summary(spec, lines, metrics, 0, "r", java.time.Instant.now()).toJson();

        assertThat(s.at("/judge/accuracy").isNull()).isTrue();
        assertThat(s.at("/judge/parsed").asInt()).isZero();
        assertThat(s.at("/judge/n").asInt()).isEqualTo(2);
        assertThat(s.at("/judge/unparseable").asInt()).isEqualTo(2);
        assertThat(s.at("/metrics_n/nq-em").asInt()).isEqualTo(2);
        assertThat(s.at("/metrics/nq-em").isNumber()).isTrue();
        assertThat(s.at("/metrics_n/substring:strict").asInt()).isEqualTo(2);

        JsonNode none = EvalRunner.summary(spec, List.of(), metrics, 0, "r", java.time.Instant.now()).toJson();
        assertThat(none.at("/metrics/nq-em").isNull()).isTrue();
        assertThat(none.at("/metrics_n/nq-em").asInt()).isZero();
        assertThat(none.has("judge")).isFalse();
    }

    /** CoT-SC's shape: one request for 21 samples at temperature 0.7, then one greedy request to phrase the answer. */
    private static final QaMethod SELF_CONSISTENT = new QaMethod() {
        @Override
        public String name() {
            return "sc-like";
        }

        @Override
        public MethodSpec spec() {
            return MethodSpec.named(name()).withNeeds();
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            List<String> votes = ctx.llm().call(ctx.role("sampler", 0), LlmRequest.user("vote: " + item.question())
                    .temperature(0.7).n(21).build()).texts();
            // the question in the prompt: the scripted votes are the same for every question, and without it a
            // question that started later would find an earlier one's answer in the cache (a race on the scheduler)
            String out = ctx.llm().call(ctx.role("answerer", 1), LlmRequest.user("answer " + item.question() + ": "
                    + votes.getFirst()).build()).text();
            return new MethodAnswer(out, List.of(out), List.of());
        }
    };

    @Test
    void aRerunIntoANewFolderCountsWhatTheMethodUsedWhetherTheCacheAnsweredOrNot() throws Exception {
        Path data = nq();
        JsonNode[] summaries = new JsonNode[2];
        List<List<JsonNode>> lines = new java.util.ArrayList<>();
        try (var cache = dev.veracity.llm.cache.SqliteResponseCache.open(dir.resolve("cache.db"))) {
            for (int run = 0; run < 2; run++) {
                // the first run asks a model that takes 20 ms a request; the second finds every answer in the cache
                ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "Paris " + i)
                        .latency(java.time.Duration.ofMillis(run == 0 ? 20 : 0));
                EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
                LlmClient client = LlmClient.builder(backend).traces(traces)
                        .cache(cache, dev.veracity.llm.cache.CacheMode.READ_WRITE).build();
                Path out = dir.resolve("run-" + run);
                summaries[run] = EvalRunner.run(new EvalRunner.Spec(SELF_CONSISTENT, "nq-open", data, 0, out, 3,
                        DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "r" + run, p -> { }).summary().toJson();
                lines.add(Files.readAllLines(out.resolve("results.jsonl")).stream().map(l -> {
                    try {
                        return JSON.readTree(l);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }).toList());
                if (run == 1) {
                    assertThat(backend.requests()).isEmpty();
                }
            }
        }
        JsonNode live = summaries[0];
        JsonNode replay = summaries[1];
        // requests and samples: 2 requests, 22 samples (the paper counts CoT-SC's 21 samples as 21 LLM calls)
        for (JsonNode s : summaries) {
            assertThat(s.get("calls_per_question").asDouble()).isEqualTo(2.0);
            assertThat(s.get("samples_per_question").asDouble()).isEqualTo(22.0);
            assertThat(s.at("/roles/sampler/samples_per_question").asDouble()).isEqualTo(21.0);
            assertThat(s.at("/roles/sampler/calls_per_question").asDouble()).isEqualTo(1.0);
            assertThat(s.get("questions_at_once").asInt()).isEqualTo(3);
        }
        // tokens: the same in the rerun, though the cache answered everything; the cache's share apart
        assertThat(replay.get("prompt_tokens_per_question").asDouble()).isPositive()
                .isEqualTo(live.get("prompt_tokens_per_question").asDouble());
        assertThat(replay.get("completion_tokens_per_question").asDouble()).isPositive()
                .isEqualTo(live.get("completion_tokens_per_question").asDouble());
        assertThat(live.get("cached_share").asDouble()).isZero();
        assertThat(replay.get("cached_share").asDouble()).isEqualTo(1.0);
        // the model's time: each question's two requests took 20 ms each when they were made
        assertThat(live.get("model_ms_per_question").asDouble()).isGreaterThanOrEqualTo(40.0);
        assertThat(replay.get("model_ms_per_question").asDouble()).isGreaterThanOrEqualTo(40.0);
        assertThat(live.has("per_question_n")).isFalse();
        assertThat(lines.get(1)).hasSize(3).allSatisfy(l -> {
            assertThat(l.get("calls").asInt()).isEqualTo(2);
            assertThat(l.get("samples").asInt()).isEqualTo(22);
            assertThat(l.get("cache_hits").asInt()).isEqualTo(2);
            assertThat(l.get("cached_samples").asInt()).isEqualTo(22);
            assertThat(l.get("cached_tokens").asInt()).isEqualTo(l.get("prompt_tokens").asInt() + l.get("completion_tokens").asInt());
            assertThat(l.at("/roles/sampler/samples").asInt()).isEqualTo(21);
            // per role too: the model's time of the requests the cache answered, not the lookup's
            assertThat(l.at("/roles/sampler/model_seconds").asDouble()).isGreaterThanOrEqualTo(0.02);
            assertThat(l.at("/roles/answerer/model_seconds").asDouble()).isGreaterThanOrEqualTo(0.02);
        });
        for (JsonNode s : summaries) {
            assertThat(s.at("/roles/sampler/model_seconds_per_question").asDouble()).isGreaterThanOrEqualTo(0.02);
            assertThat(s.at("/roles/answerer/model_seconds_per_question").asDouble()).isGreaterThanOrEqualTo(0.02);
        }
    }

    @Test
    void aSummaryOverLinesWrittenBeforeSamplesAndModelTimeSaysOverHowManyItCountedThem() throws Exception {
        EvalRunner.Spec spec = new EvalRunner.Spec(ECHO, "nq-open", nq(), 0, dir.resolve("out"), 1,
                DatasetProfile.of("nq-open"), Map.of(), Map.of());
        List<ResultLine> lines = TestLines.of(
                ("{\"id\": \"a\", \"prediction\": \"x\", \"gold\": [\"x\"], \"calls\": 2,"
                        + " \"prompt_tokens\": 10, \"completion_tokens\": 2, \"wall_ms\": 5, \"critical_path_ms\": 5}"),
                ("{\"id\": \"b\", \"prediction\": \"x\", \"gold\": [\"x\"], \"calls\": 1, \"samples\": 21,"
                        + " \"cached_samples\": 7, \"prompt_tokens\": 10, \"completion_tokens\": 2, \"wall_ms\": 5,"
                        + " \"critical_path_ms\": 5, \"model_ms\": 30}"));

        JsonNode s = EvalRunner.summary(spec, lines, List.of(), 0, "r", java.time.Instant.now()).toJson();

        assertThat(s.get("calls_per_question").asDouble()).isEqualTo(1.5);
        // the old line has no samples: counted over the line that has them, and said so, never as 0
        assertThat(s.get("samples_per_question").asDouble()).isEqualTo(21.0);
        assertThat(s.get("model_ms_per_question").asDouble()).isEqualTo(30.0);
        assertThat(s.at("/per_question_n/samples").asInt()).isEqualTo(1);
        assertThat(s.at("/per_question_n/model_ms").asInt()).isEqualTo(1);
        assertThat(s.get("cached_share").asDouble()).isEqualTo(7.0 / 21);
        JsonNode old = EvalRunner.summary(spec, lines.subList(0, 1), List.of(), 0, "r", java.time.Instant.now()).toJson();
        assertThat(old.get("samples_per_question").isNull()).isTrue();
        assertThat(old.get("cached_share").isNull()).isTrue();
    }

    @Test
    void evalsDefaultAdmissionKeepsTheClientsSlotsBusyWhileQuestionsWorkBetweenTheirCalls() throws Exception {
        // the first two questions (as many as the client's slots) call, then hold their work between calls until a call
        // of another question reaches the model: a runner that admits only as many questions as slots has none to
        // ask, and they hold until the guard gives up
        int slots = 2;
        java.util.concurrent.CountDownLatch another = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger heldUntilAnother = new java.util.concurrent.atomic.AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            if (!r.promptText().contains("q0 ") && !r.promptText().contains("q1 ")) {
                another.countDown();
            }
            return "a";
        });
        QaMethod thinker = closedBook("thinker", (item, ctx) -> {
            ctx.llm().call(ctx.role("first", 0), LlmRequest.user(item.question() + " first").build());
            if (item.question().equals("q0") || item.question().equals("q1")) {
                try { // work between the calls that lasts until another question's call was made
                    if (another.await(dev.veracity.testing.Await.GUARD.toSeconds() / 6, java.util.concurrent.TimeUnit.SECONDS)) {
                        heldUntilAnother.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            String out = ctx.llm().call(ctx.role("second", 0), LlmRequest.user(item.question() + " second").build()).text();
            return new MethodAnswer(out, List.of(out), List.of(), Map.of());
        });
        Path data = sixQuestions();
        InMemoryTraces store = new InMemoryTraces();
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(store);
        LlmClient client = LlmClient.builder(backend).concurrency(slots).traces(traces).build();
        EvalRunner.Outcome o = EvalRunner.run(new EvalRunner.Spec(thinker, "nq-open", data, 0, dir.resolve("busy"),
                dev.veracity.llm.client.ConcurrencyLimit.fixed(slots).questionsAtOnce(), DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces,
                "a", p -> { });
        assertThat(heldUntilAnother.get()).as("questions whose work between calls ended when another question called")
                .isEqualTo(2);
        assertThat(o.answered()).isEqualTo(6);
        assertThat(backend.peakConcurrency()).isLessThanOrEqualTo(slots);
        assertThat(store.all()).hasSize(12); // every call traced
        // each call carries its question's place, by which the client serves waiting calls
        Map<String, Integer> positions = new java.util.HashMap<>();
        for (String l : Files.readAllLines(dir.resolve("busy/results.jsonl"))) {
            JsonNode row = JSON.readTree(l);
            positions.put(row.get("id").asText(), row.get("position").asInt());
        }
        assertThat(store.all()).allSatisfy(r -> assertThat(r.context().order())
                .isEqualTo((long) positions.get(r.context().questionId())));
    }

    @Test
    void theSamplingSettingsLeaveTheSamplePositionOutAsAJsonParseWould() throws Exception {
        for (String settings : List.of("{\"n\":1,\"first_sample\":0,\"temperature\":0.7,\"max_tokens\":64}",
                "{\"n\":21,\"first_sample\":105,\"temperature\":1.0,\"stop\":[\",\\\"first_sample\\\":3,\"]}",
                "{\"n\":1,\"first_sample\":0}", "{\"first_sample\":2,\"n\":1,\"seed\":4}", "{}", "not json",
                "{\"n\":1,\"first_sample\":-1,\"top_p\":0.9}")) {
            String parsed;
            try {
                com.fasterxml.jackson.databind.JsonNode n = JSON.readTree(settings);
                ((com.fasterxml.jackson.databind.node.ObjectNode) n).remove("first_sample");
                parsed = n.toString();
            } catch (java.io.IOException e) {
                parsed = settings;
            }
            assertThat(EvalRunner.QuestionTraces.withoutSamplePosition(settings)).as(settings).isEqualTo(parsed);
        }
    }

    @Test
    void questionsBeyondTheClientsSlotsStartOnePerCallAnsweredAndAMethodWithoutCallsStillRunsThemAll() throws Exception {
        int slots = 2;
        java.util.concurrent.Semaphore answers = new java.util.concurrent.Semaphore(0);
        java.util.concurrent.atomic.AtomicInteger inBackend = new java.util.concurrent.atomic.AtomicInteger();
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            inBackend.incrementAndGet();
            answers.acquireUninterruptibly(); // each call waits until the test lets one through
            return "a";
        });
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        QaMethod counted = closedBook("counted", (item, ctx) -> {
            started.incrementAndGet();
            String out = ctx.llm().call(ctx.role("only", 0), LlmRequest.user(item.question()).build()).text();
            return new MethodAnswer(out, List.of(out), List.of(), Map.of());
        });
        Path data = sixQuestions();
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).concurrency(slots).traces(traces).build();
        Thread run = Thread.ofVirtual().start(() -> EvalRunner.run(new EvalRunner.Spec(counted, "nq-open", data, 0,
                dir.resolve("ramp"), dev.veracity.llm.client.ConcurrencyLimit.fixed(slots).questionsAtOnce(), DatasetProfile.of("nq-open"), Map.of(),
                Map.of()), client, traces, "a", p -> { }));
        dev.veracity.testing.Await.until("two calls at the model", () -> inBackend.get() == slots);
        // no call answered yet: the questions beyond the client's slots have not started
        assertThat(started.get()).isEqualTo(slots);
        answers.release(); // one call answered, and its question finished: two more questions may start
        dev.veracity.testing.Await.until("two more questions started", () -> started.get() == slots + 2);
        assertThat(inBackend.get()).isLessThanOrEqualTo(slots + 1); // the client's two slots: one call more than before
        answers.release(100);
        run.join();
        assertThat(started.get()).isEqualTo(6);

        // a method that calls no model gets no call answered: its questions start as others finish, and all run
        java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
        QaMethod silent = closedBook("silent", (item, ctx) -> {
            answered.incrementAndGet();
            return new MethodAnswer("a", List.of("a"), List.of(), Map.of());
        });
        EvalRunner.Outcome o = EvalRunner.run(new EvalRunner.Spec(silent, "nq-open", data, 0, dir.resolve("silent"),
                dev.veracity.llm.client.ConcurrencyLimit.fixed(slots).questionsAtOnce(), DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces,
                "b", p -> { });
        assertThat(o.answered()).isEqualTo(6);
        assertThat(answered.get()).isEqualTo(6);
    }

    @Test
    void callsGoInQuestionOrderUntilTheLastQuestionIsAdmittedThenTheLongestChainAheadGoesFirst() throws Exception {
        // one slot, all six questions at once, each question two calls ("first", then "second"); every call holds the
        // slot until the test answers it, and a question makes each call only when the test lets it, so that two calls
        // wait for the slot together and the next one served shows how they were ranked
        Map<String, java.util.concurrent.Semaphore> go = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Thread> threads = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.Semaphore answers = new java.util.concurrent.Semaphore(0);
        List<String> served = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> {
            served.add(r.promptText());
            answers.acquireUninterruptibly();
            return "a";
        });
        java.util.function.Function<String, java.util.concurrent.Semaphore> gate =
                q -> go.computeIfAbsent(q, k -> new java.util.concurrent.Semaphore(0));
        QaMethod twoCalls = closedBook("two-calls", (item, ctx) -> {
            threads.put(item.question(), Thread.currentThread());
            gate.apply(item.question()).acquireUninterruptibly();
            ctx.llm().call(ctx.role("first", 0), LlmRequest.user(item.question() + " first").build());
            gate.apply(item.question()).acquireUninterruptibly();
            String out = ctx.llm().call(ctx.role("second", 0), LlmRequest.user(item.question() + " second").build())
                    .text();
            return new MethodAnswer(out, List.of(out), List.of(), Map.of());
        });
        java.util.function.Consumer<String> atItsGate = q -> dev.veracity.testing.Await.until(q + " before its call",
                () -> gate.apply(q).hasQueuedThreads());
        // lets q make its next call: it is served, or waits for the slot
        java.util.function.Consumer<String> call = q -> {
            gate.apply(q).release();
            dev.veracity.testing.Await.until(q + " calling", () -> !gate.apply(q).hasQueuedThreads()
                    && threads.get(q).getState() == Thread.State.WAITING);
        };
        java.util.function.IntConsumer answer = n -> {
            answers.release();
            dev.veracity.testing.Await.until("call " + n + " served", () -> served.size() == n);
        };
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).concurrency(1).traces(traces).build();
        Path data = sixQuestions();
        Thread run = Thread.ofVirtual().start(() -> EvalRunner.run(new EvalRunner.Spec(twoCalls, "nq-open",
                data, 0, dir.resolve("ends"), 6, DatasetProfile.of("nq-open"), Map.of(), Map.of()), client,
                traces, "ends", p -> { }));

        atItsGate.accept("q0");
        call.accept("q0"); // served: q0 first
        answers.release(); // answered: one more question admitted (one per call answered)
        atItsGate.accept("q0");
        atItsGate.accept("q1");
        call.accept("q1"); // served: q1 first
        call.accept("q0"); // waits
        answer.accept(3); // q1 first answered; served: q0 second
        atItsGate.accept("q1");
        atItsGate.accept("q2");
        call.accept("q2"); // waits
        call.accept("q1"); // waits
        // three of six questions admitted, not the run's end: the earlier question's second call before a later
        // question's first (ranked as the run's end ranks, breadth first while nothing is learned, q2 would go first)
        answer.accept(4);
        assertThat(served).containsExactly("q0 first", "q1 first", "q0 second", "q1 second");

        // q0 done, then q1: q3, q4 and at last q5 admitted, the run's end; first calls were learned to have two calls
        // ahead, second calls one
        atItsGate.accept("q3");
        call.accept("q3"); // waits behind q2 first
        answer.accept(5); // q1 second answered; served: q2 first
        answer.accept(6); // q2 first answered; served: q3 first
        assertThat(served.subList(4, 6)).containsExactly("q2 first", "q3 first");
        atItsGate.accept("q5");
        atItsGate.accept("q2");
        call.accept("q2"); // waits: one call ahead, an earlier question
        call.accept("q5"); // waits: two calls ahead, the last question
        answer.accept(7);
        assertThat(served.get(6)).as("at the run's end the call with the longer chain ahead").isEqualTo("q5 first");

        for (int q = 0; q < 6; q++) {
            gate.apply("q" + q).release(10);
        }
        answers.release(100);
        run.join();
        assertThat(served).hasSize(12);
    }

    @Test
    void aRunRanksItsOwnCallsOnItsClientsWhileItRunsAndGivesTheRankingBackAfter() throws Exception {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "a");
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).concurrency(2).traces(traces).build();
        java.util.List<String> refusals = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        QaMethod probe = closedBook("probe", (item, ctx) -> {
            // the run's ranking is in place on its client: another one for the same run is refused
            try {
                client.rankRun("ranked", c -> 0).close();
            } catch (IllegalStateException e) {
                refusals.add(e.getMessage());
            }
            String out = ctx.llm().call(ctx.role("only", 0), LlmRequest.user(item.question()).build()).text();
            return new MethodAnswer(out, List.of(out), List.of(), Map.of());
        });
        EvalRunner.Outcome o = EvalRunner.run(new EvalRunner.Spec(probe, "nq-open", sixQuestions(), 0,
                dir.resolve("ranked"), 4, DatasetProfile.of("nq-open"), Map.of(), Map.of()), client, traces, "ranked",
                p -> { });

        assertThat(o.answered()).isEqualTo(6);
        assertThat(refusals).hasSize(6).allSatisfy(m -> assertThat(m).contains("run ranked already ranks its calls"));
        // given back: the same run id may be ranked again
        client.rankRun("ranked", c -> 0).close();
    }
}
