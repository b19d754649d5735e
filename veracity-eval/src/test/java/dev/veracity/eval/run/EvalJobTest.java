package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.config.VeracityConfig;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.method.AgentRecord;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.QaMethod;
import dev.veracity.method.TrainingRecords;
import dev.veracity.qa.QaItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An eval job: checked as it is built and before its first model call, then run once per folder on scripted servers. */
class EvalJobTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A scripted environment that counts what a job asked of it: server checks, clients opened, model calls. */
    private static final class Scripted extends ScriptedJobEnvironment {
        Scripted() {
            super(ScriptedBackend.perSample((r, i) -> r.promptText().contains("france") ? "Paris"
                    : r.promptText().contains("italy") ? "Rome" : "Madrid"));
        }
    }


    /** Answers with the model's reply to the bare question (closed book unless told it reads documents). */
    private static class Echo implements QaMethod {
        private final boolean needsDocuments;

        Echo(boolean needsDocuments) {
            this.needsDocuments = needsDocuments;
        }

        @Override
        public String name() {
            return "echo";
        }

        @Override
        public dev.veracity.method.MethodSpec spec() {
            return needsDocuments ? dev.veracity.method.MethodSpec.named("echo")
                    : dev.veracity.method.MethodSpec.named("echo").withNeeds(); // closed book: no documents
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            return MethodAnswer.of(ctx.llm().call(ctx.role("answerer", 0), LlmRequest.user("Q: " + item.question()).build()).text());
        }
    }

    /** Echo that keeps one training record per question, as MARCH keeps its Solver's and Checker's. */
    private static final class Recording extends Echo implements TrainingRecords {
        private final String run;
        private final Consumer<List<AgentRecord>> sink;

        Recording(String run, Consumer<List<AgentRecord>> sink) {
            super(false);
            this.run = run;
            this.sink = sink;
        }

        @Override
        public String recordsFile() {
            return "echo-records.jsonl";
        }

        @Override
        public String recordsDescription() {
            return "Echo's records";
        }

        @Override
        public QaMethod recording(String run, Consumer<List<AgentRecord>> sink) {
            return new Recording(run, sink);
        }

        @Override
        public MethodAnswer answer(QaItem item, MethodContext ctx) {
            MethodAnswer a = super.answer(item, ctx);
            sink.accept(List.of(AgentRecord.of(run, item.id(), "echo", "answerer", "answerer-0", null,
                    List.of(ChatMessage.user("Q: " + item.question())), a.prediction(), 1.0)));
            return a;
        }
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

    private static VeracityConfig model() {
        return VeracityConfig.resolve(Map.of(), Path.of("no-such-config.properties"), false,
                Map.of("llm-base-url", "http://127.0.0.1:9/v1", "model", "scripted", "cache", "off"));
    }

    private EvalJob.Builder job(QaMethod method, Path out) throws Exception {
        return EvalJob.builder(method, "nq-open", nq(), out).model(model()).documents(ScriptedJobEnvironment.OWN_DOCUMENTS);
    }

    @Test
    void eachMistakeIsOneLineAndStopsTheJobBeforeItIsBuilt() throws Exception {
        Path out = dir.resolve("out");
        List<ThrowingCallable> mistakes = new ArrayList<>();
        mistakes.add(() -> job(new Echo(false), out).questionsAtOnce(0).build());
        mistakes.add(() -> job(new Echo(false), out).judgeSamples(0).build());
        mistakes.add(() -> job(new Echo(false), out).options(Map.of("k", "3")).build());
        mistakes.add(() -> job(new Echo(false), out).limit(-1).build());
        mistakes.add(() -> job(new Echo(false), out).judge("oracle").build());
        mistakes.add(() -> job(new Echo(false), out).judgePrompt("paper").build());
        mistakes.add(() -> job(new Echo(false), out).judge("crag").judgePrompt("mine").build());
        mistakes.add(() -> job(new Echo(false), out).metrics(List.of("bleu-9")).build());
        mistakes.add(() -> EvalJob.builder(new Echo(false), "no-such-dataset", nq(), out).model(model()).documents(ScriptedJobEnvironment.OWN_DOCUMENTS).build());
        mistakes.add(() -> EvalJob.builder(new Echo(false), "nq-open", dir.resolve("missing.jsonl"), out).model(model())
                .documents(ScriptedJobEnvironment.OWN_DOCUMENTS).build());
        for (ThrowingCallable m : mistakes) {
            assertThatThrownBy(m).isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertThat(e.getMessage()).isNotBlank().doesNotContain("\n"));
        }
        assertThat(out).doesNotExist();
    }

    @Test
    void aRagMethodOnQuestionsWithoutPassagesStopsBeforeAnyServerIsAsked() throws Exception {
        Scripted env = new Scripted();
        Path out = dir.resolve("rag");
        EvalJob job = job(new Echo(true), out).build();

        assertThatThrownBy(() -> EvalJobRunner.run(job, env)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(env.preflights.get()).isZero();
        assertThat(env.opened.get()).isZero();
        assertThat(env.backend.requests().size()).isZero();
        assertThat(out).doesNotExist();
    }

    @Test
    void aFolderOfAnotherConfigurationIsRefusedBeforeAnyModelCall() throws Exception {
        Scripted env = new Scripted();
        Path out = dir.resolve("run");
        EvalJobRunner.run(job(new Echo(false), out).build(), env);
        int calls = env.backend.requests().size();
        assertThat(calls).isEqualTo(3);

        assertThatThrownBy(() -> EvalJobRunner.run(job(new Echo(false), out).metrics(List.of("f1")).build(), env))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds a run of another configuration");
        assertThat(env.backend.requests().size()).isEqualTo(calls);
        assertThat(env.opened.get()).isEqualTo(1);
    }

    @Test
    void runsOncePerFolderRecordingWhatItsAnswersDependOn() throws Exception {
        Scripted env = new Scripted();
        Path out = dir.resolve("run");
        EvalJobRunner.Result r = EvalJobRunner.run(job(new Echo(false), out).limit(2).build(), env);

        assertThat(r.outcome().answered()).isEqualTo(2);
        assertThat(r.recordsLine()).isEmpty();
        assertThat(env.preflights.get()).isEqualTo(1);
        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        assertThat(run.get("method").asText()).isEqualTo("echo");
        assertThat(run.get("dataset").asText()).isEqualTo("nq-open");
        assertThat(run.get("documents").asText()).isEqualTo("dataset");
        assertThat(run.get("judge").asText()).isEqualTo("none");
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertThat(summary.toString()).contains("\"timeout_seconds\"", "\"cache\":\"off\"");

        // the same job again resumes: a larger limit extends the run without a second check of the folder's questions
        EvalJobRunner.Result more = EvalJobRunner.run(job(new Echo(false), out).build(), env);
        assertThat(more.outcome().alreadyDone()).isEqualTo(2);
        assertThat(more.outcome().answered()).isEqualTo(1);
    }

    @Test
    void aMethodsTrainingRecordsGoBesideItsAnswersThroughItsHook() throws Exception {
        Scripted env = new Scripted();
        Path out = dir.resolve("echo-run");
        EvalJobRunner.Result r = EvalJobRunner.run(job(new Recording("unset", l -> { }), out).preflight(false).build(), env);

        assertThat(env.preflights.get()).isZero();
        assertThat(r.records()).isEqualTo(out.resolve("echo-records.jsonl"));
        assertThat(r.recordsLine()).contains("Echo's records: " + out.resolve("echo-records.jsonl"));
        List<String> lines = Files.readAllLines(r.records());
        assertThat(lines).hasSize(3);
        for (String l : lines) {
            JsonNode n = JSON.readTree(l);
            assertThat(n.get("run").asText()).isEqualTo("echo-run"); // the run folder's name
            assertThat(n.get("response").asText()).isIn("Paris", "Rome", "Madrid");
        }
        // --force starts the folder over, the method's records with it: the old run's never mix with the new one's
        EvalJobRunner.Result again = EvalJobRunner.run(job(new Recording("unset", l -> { }), out).preflight(false)
                .force(true).build(), env);
        assertThat(Files.readAllLines(again.records())).hasSize(3);
    }
}
