package dev.veracity.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapabilityTest {

    /** A need of a plug-in's own, which no runner here provides. */
    enum Own implements Capability {
        GPU_INDEX;

        @Override
        public String key() {
            return "gpu-index";
        }

        @Override
        public String description() {
            return "a GPU vector index";
        }
    }

    @Test
    void aMethodNeedsTheQuestionsDocumentsUnlessItDeclaresOtherwise() {
        assertThat(MethodSpec.named("rag").needs()).containsExactly(Capability.DOCUMENTS);
        assertThat(MethodSpec.named("closed").withNeeds().needs()).isEmpty();
        MethodSpec spec = MethodSpec.named("drafts").withNeeds(Capability.DOCUMENTS, Capability.EMBEDDER);
        assertThat(spec.needs(Capability.EMBEDDER)).isTrue();
        assertThat(spec.needs(Capability.RETRIEVER)).isFalse();
        assertThat(Capability.keys(spec.needs())).isEqualTo("documents, embedder");
    }

    @Test
    void aNeedNoRunnerProvidesIsRefusedInOneLineThatNamesIt() {
        Capability.requireProvided(MethodSpec.named("ok").withNeeds(Capability.DOCUMENTS, Capability.PAGES,
                new ModelRole("critic", "a critic model")));
        MethodSpec spec = MethodSpec.named("gpu-rag").withNeeds(Capability.DOCUMENTS, Own.GPU_INDEX);
        assertThatThrownBy(() -> Capability.requireProvided(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("method gpu-rag needs gpu-index (a GPU vector index), which no runner here provides")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aModelRoleIsBoundOnlyWhenTheMethodDeclaresItAndOtherwiseIsTheLlm() {
        LlmClient llm = LlmClient.builder(ScriptedBackend.perSample((r, i) -> "llm")).build();
        LlmClient critic = LlmClient.builder(ScriptedBackend.perSample((r, i) -> "critic")).build();
        LlmClient stray = LlmClient.builder(ScriptedBackend.perSample((r, i) -> "stray")).build();
        ModelRole role = new ModelRole("critic", "a critic model");
        MethodSpec spec = MethodSpec.named("judged").withNeeds(Capability.DOCUMENTS, role);

        Map<ModelRole, LlmClient> bound = ModelRole.bind(spec, Map.of("critic", critic, "proxy", stray));
        assertThat(bound).containsOnlyKeys(role); // the proxy: not declared, not given
        // a role is its name: the method's constant and one spelled elsewhere are the same role
        assertThat(bound.get(new ModelRole("critic", "other words"))).isSameAs(critic);

        MethodContext ctx = new MethodContext(llm, dev.veracity.trace.CallContext.of("r", "q", "judged"), "", false,
                Map.of(), null, null, null, bound);
        assertThat(ctx.model(role)).isSameAs(critic);
        assertThat(ctx.hasModel(role)).isTrue();
        assertThat(ctx.model(new ModelRole("proxy", ""))).isSameAs(llm);
        assertThat(ctx.withEveryClient(c -> c).model(role)).isNotNull();
        assertThat(new ModelRole("critic", "").key()).isEqualTo("model:critic");
        assertThat(List.of(Capability.DOCUMENTS.key(), Capability.RETRIEVER.key(), Capability.PAGES.key(),
                Capability.EMBEDDER.key())).containsExactly("documents", "retriever", "pages", "embedder");
    }
}
