package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.ModelRole;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.InMemoryTraces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner reads what a method declares it needs: it binds the models of its roles, and refuses what it cannot give. */
class MethodNeedsTest {

    @TempDir
    Path dir;

    /** A need of a plug-in's own that no runner here provides. */
    record GpuIndex() implements Capability {
        @Override
        public String key() {
            return "gpu-index";
        }

        @Override
        public String description() {
            return "a GPU vector index";
        }
    }

    static final ModelRole CRITIC = new ModelRole("critic", "a second model that checks the answer, else the LLM");

    /** Answers with the LLM, then asks its critic role; closed book, plus whatever else it is told to need. */
    private static QaMethod plugin(Capability... alsoNeeds) {
        return new QaMethod() {
            @Override
            public String name() {
                return "critic-qa";
            }

            @Override
            public MethodSpec spec() {
                return MethodSpec.named(name()).withNeeds(alsoNeeds);
            }

            @Override
            public MethodAnswer answer(QaItem item, MethodContext ctx) {
                String a = ctx.llm().call(ctx.role("answerer", 0), LlmRequest.user(item.question()).build()).text();
                String c = ctx.model(CRITIC).call(ctx.role("critic", 0), LlmRequest.user("check: " + a).build()).text();
                return MethodAnswer.of(a + " / " + c);
            }
        };
    }

    private Path data() throws Exception {
        Path f = dir.resolve("nq.jsonl");
        Files.writeString(f, """
                {"question": "capital of france", "answer": ["Paris"]}
                """);
        return f;
    }

    private EvalRunner.Spec spec(QaMethod m) throws Exception {
        return new EvalRunner.Spec(m, "nq-open", data(), 0, dir.resolve("out"), 1, DatasetProfile.of("nq-open"), Map.of(),
                Map.of());
    }

    @Test
    void aNeedTheRunnerCannotMeetIsOneLineBeforeAnyModelCall() throws Exception {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> "Paris");
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient client = LlmClient.builder(backend).traces(traces).build();

        assertThatThrownBy(() -> EvalRunner.run(spec(plugin(CRITIC, new GpuIndex())), client, traces, "r", p -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("method critic-qa needs gpu-index (a GPU vector index), which no runner here"
                        + " provides")
                .hasMessageNotContaining("\n");
        assertThat(backend.requests()).isEmpty();
        assertThat(dir.resolve("out/results.jsonl")).doesNotExist();
    }

    @Test
    void theModelOfADeclaredRoleIsBoundAndAnUndeclaredRoleRunsOnTheLlm() throws Exception {
        ScriptedBackend llm = ScriptedBackend.perSample((r, i) -> "Paris");
        ScriptedBackend critic = ScriptedBackend.perSample((r, i) -> "fine");
        EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(new InMemoryTraces());
        LlmClient llmClient = LlmClient.builder(llm).traces(traces).build();
        LlmClient criticClient = LlmClient.builder(critic).traces(traces).build();
        Map<String, LlmClient> byRole = Map.of("critic", criticClient);

        EvalRunner.run(spec(plugin(CRITIC)), llmClient, byRole, traces, "declared", p -> { });
        assertThat(llm.requests()).hasSize(1);
        assertThat(critic.requests()).hasSize(1);
        assertThat(Files.readString(dir.resolve("out/results.jsonl"))).contains("Paris / fine");

        // the same method without the declaration: the front end's critic model is not given to it
        Files.delete(dir.resolve("out/results.jsonl"));
        EvalRunner.run(spec(plugin()), llmClient, byRole, traces, "undeclared", p -> { });
        assertThat(critic.requests()).hasSize(1);
        assertThat(llm.requests()).hasSize(3);
        assertThat(Files.readString(dir.resolve("out/results.jsonl"))).contains("Paris / Paris");
    }
}
