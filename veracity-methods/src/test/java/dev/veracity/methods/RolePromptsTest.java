package dev.veracity.methods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.AgentPrompt;
import dev.veracity.method.MethodContext;
import dev.veracity.method.PromptContext;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RolePromptsTest {

    private static final QaItem ITEM = new QaItem("q1", "In which year was Michael Jordan born?",
            List.of(Document.of("d1", "Michael Jordan", "Michael Jeffrey Jordan (born February 17, 1963) is a basketball player."),
                    Document.of("d2", "", "Michael Irwin Jordan (born 1956) is a scientist.")),
            List.of(), List.of(), null, Map.of(), null);

    /** The requests a method sends when it answers ITEM, with a model that says {@code reply}. */
    private static List<LlmRequest> sent(String method, String dataset, boolean multi, Map<String, String> options,
                                         String reply) {
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> reply);
        MethodContext ctx = new MethodContext(LlmClient.builder(backend).build(), CallContext.of("run", "q1", method),
                dataset, multi, options);
        Methods.byName(method).answer(ITEM, ctx);
        return backend.requests();
    }

    private static List<AgentPrompt> built(String methodRole, String dataset, boolean multi) {
        return RolePrompts.select(methodRole).role().build(ITEM, new PromptContext(dataset, multi, Map.of()));
    }

    @Test
    void theSelectableRolesAreThoseWhosePromptFollowsFromTheQuestion() {
        assertThat(RolePrompts.names()).containsExactly("no-rag:answerer", "standard-rag:answerer", "cot:reasoner",
                "cot-sc:reasoner", "madam-rag:agent", "march:solver", "truthrl:answerer", "truthrl-no-retrieval:answerer");
        assertThat(RolePrompts.select("march").name()).isEqualTo("march:solver");
        assertThat(RolePrompts.select(" MADAM-RAG:Agent ").name()).isEqualTo("madam-rag:agent");
    }

    @Test
    void anUnknownMethodOrRoleIsOneLineListingTheKnownOnes() {
        String known = "known: no-rag:answerer, standard-rag:answerer, cot:reasoner, cot-sc:reasoner, madam-rag:agent,"
                + " march:solver, truthrl:answerer, truthrl-no-retrieval:answerer";
        assertThatThrownBy(() -> RolePrompts.select("axolotl")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown method 'axolotl' for a prompt; " + known);
        assertThatThrownBy(() -> RolePrompts.select("march:checker")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("method march has no role 'checker' with a prompt (its roles: solver); " + known);
        assertThatThrownBy(() -> RolePrompts.select("astute-rag")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("method astute-rag exposes no role prompt for training data").hasMessageEndingWith(known);
        assertThatThrownBy(() -> RolePrompts.select("")).hasMessageStartingWith("unknown method ''");
    }

    @Test
    void theBaselinesPromptsAreTheMessagesTheirCallsSend() {
        for (boolean multi : new boolean[] {true, false}) {
            String dataset = multi ? "ramdocs" : "hotpotqa";
            for (String m : List.of("no-rag", "standard-rag")) {
                List<AgentPrompt> p = built(m, dataset, multi);
                assertThat(p).singleElement().extracting(AgentPrompt::agent).isEqualTo("answerer");
                // no-rag is closed book: the runner gives it no documents, and its prompt never shows them
                assertThat(sent(m, dataset, multi, Map.of(), "Answer: 1963").getFirst().messages())
                        .as(m + " multi=" + multi).isEqualTo(p.getFirst().messages());
            }
        }
        assertThat(built("standard-rag", "hotpotqa", false).getFirst().messages().getFirst().content())
                .contains("Michael Jordan. Michael Jeffrey Jordan (born February 17, 1963)")
                .contains("In which year was Michael Jordan born?");
        for (String dataset : List.of("fever", "musique", "hotpotqa")) {
            List<AgentPrompt> cot = built("cot", dataset, false);
            assertThat(sent("cot", dataset, false, Map.of(), "Answer: 1963").getFirst().messages())
                    .isEqualTo(cot.getFirst().messages());
            assertThat(sent("cot-sc", dataset, false, Map.of("k", "2"), "Answer: 1963").getFirst().messages())
                    .isEqualTo(built("cot-sc", dataset, false).getFirst().messages())
                    .isEqualTo(cot.getFirst().messages());
        }
        // the few-shot examples differ by dataset, as the paper's
        assertThat(built("cot", "fever", false)).isNotEqualTo(built("cot", "hotpotqa", false));
    }

    @Test
    void madamExposesEveryAgentsRoundOnePromptOnePerDocument() {
        List<AgentPrompt> agents = built("madam-rag:agent", "ramdocs", true);
        assertThat(agents).extracting(AgentPrompt::agent).containsExactly("agent-1", "agent-2");
        assertThat(agents.get(0).messages()).singleElement().extracting(ChatMessage::content).asString()
                .contains("Document: Michael Jordan. Michael Jeffrey Jordan").doesNotContain("Irwin");
        assertThat(agents.get(1).messages().getFirst().content()).contains("Michael Irwin Jordan").doesNotContain("Jeffrey");
        // one round: the two agents' calls (concurrent, any order) and the aggregator's
        List<LlmRequest> sent = sent("madam-rag", "ramdocs", true, Map.of("rounds", "1"), "Answer: 1963. Explanation: d.");
        assertThat(sent).hasSize(3);
        assertThat(sent.stream().map(LlmRequest::messages).toList())
                .containsAll(agents.stream().map(AgentPrompt::messages).toList());
    }

    @Test
    void marchExposesTheSolversPromptAsItsFirstCallSendsIt() {
        QaItem paper = new QaItem("g1", AppendixC.QUESTION, AppendixC.DOCUMENTS, List.of(), List.of(), null, Map.of(), null);
        ScriptedBackend backend = ScriptedBackend.perSample((r, i) -> AppendixC.respond(r.promptText()));
        MethodContext ctx = new MethodContext(LlmClient.builder(backend).build(), CallContext.of("run", "g1", "march"),
                "", false, Map.of());
        Methods.byName("march").answer(paper, ctx);
        List<AgentPrompt> solver = RolePrompts.select("march:solver").role().build(paper, new PromptContext("", false, Map.of()));
        assertThat(solver).singleElement().extracting(AgentPrompt::agent).isEqualTo("solver");
        assertThat(backend.requests().getFirst().messages()).isEqualTo(solver.getFirst().messages());
        assertThat(solver.getFirst().messages().getFirst().content()).startsWith("Instruction: You must respond based"
                + " strictly on the information in provided passages.").contains("Document-1\n");
    }
}
