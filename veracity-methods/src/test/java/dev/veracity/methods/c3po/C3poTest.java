package dev.veracity.methods.c3po;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.method.MethodAnswer;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.InMemoryTraces;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 1 against a scripted proxy and LLM: each strategy's exact sequence of calls (which agent, which backend,
 * which documents), the forced [LLM] rules, the next-10 rule, the strategy option and the fallbacks.
 */
class C3poTest {

    static final String Q = "Who directed the film that won Best Picture in 1998?";
    static final QaItem ITEM = QaItem.of("q1", Q, List.of("James Cameron"));

    private final InMemoryTraces traces = new InMemoryTraces();
    private final Scripted.Search search = new Scripted.Search(25);

    private MethodAnswer run(ScriptedBackend proxy, ScriptedBackend llm, Map<String, String> options) {
        return new C3po().answer(ITEM, Scripted.context(proxy, llm, search, "hotpotqa", options, traces));
    }

    /** The roles of the traced calls in the order they were made, each with its backend. */
    private List<String> sequence() {
        return traces.where(r -> true).stream().sorted(java.util.Comparator.comparingLong(CallRecord::startedMicros))
                .map(r -> r.context().role() + "@" + r.context().step()).toList();
    }

    private static ScriptedBackend llm() {
        return Scripted.backend((kind, r, i) -> switch (kind) {
            case "roadmap" -> "Step 1: Retrieve the Best Picture of 1998.\nStep 2: Retrieve its director.";
            case "answer" -> "The answer is James Cameron.";
            default -> "unexpected " + kind;
        });
    }

    @Test
    void noRetrievalIsOneRouterCallOnTheProxyThenTheLlmFromItsOwnKnowledge() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> kind.equals("router") ? "[No Retrieval]" : "unexpected");
        ScriptedBackend llm = llm();
        MethodAnswer a = run(proxy, llm, Map.of());

        assertThat(sequence()).containsExactly("router@1", "answer@3");
        assertThat(proxy.requests()).singleElement().satisfies(r -> assertThat(Scripted.kind(r)).isEqualTo("router"));
        LlmRequest answer = llm.requests().getFirst();
        assertThat(answer.messages()).containsExactly(ChatMessage.system("You are a helpful assistant."),
                ChatMessage.user("Note that the question may be compositional and require intermediate analysis to deduce"
                        + " the final answer. Make sure your response is grounded and provides clear reasoning details"
                        + " followed by a concise conclusion.\nBased on your knowledge, answer the question:\n" + Q));
        assertThat(answer.temperature()).isZero();
        assertThat(search.searches).isEmpty();
        assertThat(a.prediction()).isEqualTo("The answer is James Cameron.");
        assertThat(a.signals()).containsEntry("strategy_no_retrieval", 1.0).containsEntry("strategy_planning", 0.0)
                .containsEntry("depth", 3.0).containsEntry("depth_3", 1.0).containsEntry("depth_4", 0.0)
                .containsEntry("proxy_calls", 1.0).containsEntry("llm_calls", 1.0).containsEntry("searches", 0.0);
        assertThat(a.parseFailures()).isEmpty();
    }

    @Test
    void theRouterPromptIsTheAuthorsWithTheDatasetNote() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> "[No Retrieval]");
        run(proxy, llm(), Map.of());
        String p = Scripted.user(proxy.requests().getFirst());
        assertThat(p).startsWith("You are an intelligent assistant tasked with evaluating whether a given question")
                .contains("[Retrieval] `YOUR QUERY HERE`")
                .endsWith("retrieval or planning.\n4. Keep in mind that the question may be compositional.\n\n"
                        + "Now, process the following question:\n\nQuestion: " + Q + "\n");
        assertThat(proxy.requests().getFirst().temperature()).isZero();
        assertThat(proxy.requests().getFirst().maxTokens()).isEqualTo(2048);
    }

    @Test
    void singlePassRetrievesTheQueryFiltersOnTheProxyAndAnswersWithTheKeptDocumentsInTheFiltersOrder() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[Retrieval] Best Picture 1998";
            case "filter" -> "Thought: 2 names the film, 1 its director.\nAction: [2, 1]";
            default -> "unexpected " + kind;
        });
        ScriptedBackend llm = llm();
        MethodAnswer a = run(proxy, llm, Map.of());

        assertThat(sequence()).containsExactly("router@1", "filter@2", "answer@4");
        // the router's answer picks the path: its call says so, for the order of a run's last calls; no other does
        assertThat(traces.where(r -> r.context().branches())).extracting(r -> r.context().role())
                .containsExactly("router");
        assertThat(search.searches).containsExactly("Best Picture 1998|10");
        String filter = Scripted.user(proxy.requests().get(1));
        assertThat(filter).startsWith(Scripted.FILTER + " based on a given question.")
                .doesNotContain("Current step's objectives")
                .contains("Question: " + Q + "\n\nDocuments:\nDocument 1 (Title: T1 Best Picture 1998): Best Picture 1998 #1"
                        + "\n\nDocument 2 (Title: T2 Best Picture 1998): Best Picture 1998 #2")
                .endsWith("Document 10 (Title: T10 Best Picture 1998): Best Picture 1998 #10");
        String answer = Scripted.user(llm.requests().getFirst());
        assertThat(answer).endsWith("Now, process the following question:\nExisting documents: "
                + "Document 1 (Title: T2 Best Picture 1998): Best Picture 1998 #2\n\n"
                + "Document 2 (Title: T1 Best Picture 1998): Best Picture 1998 #1\n\nQuestion: " + Q);
        assertThat(a.signals()).containsEntry("strategy_retrieval", 1.0).containsEntry("depth", 4.0)
                .containsEntry("proxy_calls", 2.0).containsEntry("llm_calls", 1.0).containsEntry("documents", 2.0);
    }

    private static final Pattern PAGE = Pattern.compile("Existing Documents: (.*?)\n\nPlan:", Pattern.DOTALL);

    private static String existing(LlmRequest r) {
        Matcher m = PAGE.matcher(Scripted.user(r));
        return m.find() ? m.group(1) : "?";
    }

    @Test
    void planningFollowsTheRoadmapAndReissuingAQueryFetchesTheNextTen() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[Planning]";
            case "decision" -> {
                String docs = existing(r);
                if (docs.isEmpty()) {
                    yield "Thought: find the 1998 Best Picture.\nAction: [Retrieval] Best Picture 1998";
                }
                yield docs.contains("#11") ? "Thought: enough.\nAction: [LLM]"
                        : "Thought: look further down the ranking.\nAction: [Retrieval] Best Picture 1998";
            }
            case "filter" -> "Thought: the first one.\nAction: [1]";
            default -> "unexpected " + kind;
        });
        ScriptedBackend llm = llm();
        MethodAnswer a = run(proxy, llm, Map.of());

        assertThat(sequence()).containsExactly("router@1", "roadmap@2", "decision@3", "filter@4", "decision@5", "filter@6",
                "decision@7", "answer@9");
        assertThat(search.searches).containsExactly("Best Picture 1998|10", "Best Picture 1998|20");
        assertThat(llm.requests()).extracting(Scripted::kind).containsExactly("roadmap", "answer");
        assertThat(llm.requests().getFirst().temperature()).isEqualTo(0.3);
        List<LlmRequest> filters = proxy.requests().stream().filter(r -> Scripted.kind(r).equals("filter")).toList();
        assertThat(Scripted.user(filters.get(0))).contains("Current step's objectives: find the 1998 Best Picture.\n\n")
                .contains("Document 1 (Title: T1 Best Picture 1998): Best Picture 1998 #1\n");
        assertThat(Scripted.user(filters.get(1))).contains("Current step's objectives: look further down the ranking.")
                .contains("Document 1 (Title: T11 Best Picture 1998): Best Picture 1998 #11\n")
                .endsWith("Document 10 (Title: T20 Best Picture 1998): Best Picture 1998 #20");
        LlmRequest firstDecision = proxy.requests().get(1);
        assertThat(Scripted.user(firstDecision)).contains("Existing Documents: \n\nPlan: Step 1: Retrieve the Best Picture"
                + " of 1998.\nStep 2: Retrieve its director.\n\nQuestion: " + Q + "\n");
        assertThat(Scripted.user(llm.requests().get(1))).contains("Existing documents: Document 1 (Title: T1 Best Picture"
                + " 1998): Best Picture 1998 #1\n\nDocument 2 (Title: T11 Best Picture 1998): Best Picture 1998 #11\n\n");
        assertThat(a.signals()).containsEntry("strategy_planning", 1.0).containsEntry("depth", 9.0)
                .containsEntry("depth_9", 1.0).containsEntry("retrieval_loops", 2.0).containsEntry("proxy_calls", 6.0)
                .containsEntry("llm_calls", 2.0).containsEntry("searches", 2.0).containsEntry("forced_llm", 0.0);
    }

    @Test
    void moreThanTenDocumentsForceLlmWithTheForcedPromptWhateverTheProxySays() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[Planning]";
            case "decision" -> "Thought: more.\nAction: [Retrieval] query " + existing(r).length();
            case "forced" -> "Thought: I would still search.\nAction: [Retrieval] more";
            case "filter" -> "Thought: six look useful.\nAction: [1, 2, 3, 4, 5, 6]";
            default -> "unexpected " + kind;
        });
        ScriptedBackend llm = llm();
        MethodAnswer a = run(proxy, llm, Map.of());

        // 6 + 6 = 12 documents > 10: the third Decision Maker call is the forced one, then the answer
        assertThat(proxy.requests()).extracting(Scripted::kind)
                .containsExactly("router", "decision", "filter", "decision", "filter", "forced");
        assertThat(Scripted.user(proxy.requests().get(5))).contains("Action: [LLM]\n\nNow, process the following question:");
        assertThat(Scripted.user(llm.requests().get(1))).contains("Document 12 (Title: T6 ");
        assertThat(search.searches).hasSize(2);
        assertThat(a.signals()).containsEntry("forced_llm", 1.0).containsEntry("documents", 12.0)
                .containsEntry("depth", 9.0);
        assertThat(a.parseFailures()).isEmpty();
    }

    private static ScriptedBackend alwaysSearching() {
        return Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[Planning]";
            case "decision", "forced" -> "Thought: more.\nAction: [Retrieval] query " + existing(r).length();
            case "filter" -> "Thought: one.\nAction: [1]";
            default -> "unexpected " + kind;
        });
    }

    @Test
    void depthPastMaxDepthMinusFourForcesLlm() {
        ScriptedBackend proxy = alwaysSearching();
        MethodAnswer a = run(proxy, llm(), Map.of("max-depth", "9"));
        // decisions at depths 3, 5 retrieve; the state at depth 6 > 9 - 4, so the decision at 7 is forced; answer at 9
        assertThat(sequence()).containsExactly("router@1", "roadmap@2", "decision@3", "filter@4", "decision@5", "filter@6",
                "decision@7", "answer@9");
        assertThat(Scripted.kind(proxy.requests().getLast())).isEqualTo("forced");
        assertThat(a.signals()).containsEntry("forced_llm", 1.0).containsEntry("depth", 9.0);

        traces.clear();
        ScriptedBackend deep = alwaysSearching();
        MethodAnswer b = run(deep, llm(), Map.of());
        // the authors' test depth 15: five loops, the decision at 13 forced, the answer at 15
        assertThat(deep.requests()).extracting(Scripted::kind).filteredOn("filter"::equals).hasSize(5);
        assertThat(Scripted.kind(deep.requests().getLast())).isEqualTo("forced");
        assertThat(b.signals()).containsEntry("depth", 15.0).containsEntry("depth_15", 1.0);
    }

    @Test
    void theStrategyOptionForcesOneStrategyWithoutARouterCall() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "decision" -> "Thought: enough.\nAction: [LLM]";
            case "filter" -> "Thought: the first.\nAction: [1]";
            default -> "unexpected " + kind;
        });
        MethodAnswer planning = run(proxy, llm(), Map.of("strategy", "planning"));
        assertThat(proxy.requests()).extracting(Scripted::kind).containsExactly("decision");
        assertThat(planning.signals()).containsEntry("strategy_planning", 1.0).containsEntry("depth", 5.0);

        ScriptedBackend p2 = Scripted.backend((kind, r, i) -> "Thought: the first.\nAction: [1]");
        MethodAnswer retrieval = run(p2, llm(), Map.of("strategy", "retrieval"));
        assertThat(p2.requests()).extracting(Scripted::kind).containsExactly("filter");
        assertThat(search.searches).containsExactly(Q + "|10"); // the authors' forced [Retrieval] queries the question
        assertThat(retrieval.signals()).containsEntry("strategy_retrieval", 1.0);

        ScriptedBackend p3 = Scripted.backend((kind, r, i) -> "unexpected");
        ScriptedBackend l3 = llm();
        run(p3, l3, Map.of("strategy", "no-retrieval"));
        assertThat(p3.requests()).isEmpty();
        assertThat(l3.requests()).extracting(Scripted::kind).containsExactly("answer");
    }

    @Test
    void unparseableOutputsAreTypedFailuresWithTheDocumentedFallbacks() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "I would search the web for this.";
            case "filter" -> "Documents 1 and 3 look fine.";
            default -> "unexpected " + kind;
        });
        ScriptedBackend llm = llm();
        MethodAnswer a = run(proxy, llm, Map.of());
        // router: [Retrieval] {question}; filter: every retrieved document
        assertThat(search.searches).containsExactly(Q + "|10");
        assertThat(Scripted.user(llm.requests().getFirst())).contains("Document 10 (Title: T10 ");
        assertThat(a.parseFailures()).containsExactly(
                "router: NO_ACTION I would search the web for this.; fallback: [Retrieval] {question}",
                "filter: NO_ACTION_MARKER Documents 1 and 3 look fine.; fallback: keep all 10 retrieved documents");
        assertThat(a.signals()).containsEntry("fallbacks", 2.0).containsEntry("strategy_retrieval", 1.0);

        ScriptedBackend confused = Scripted.backend((kind, r, i) -> kind.equals("router") ? "[Planning]" : "I am not sure.");
        ScriptedBackend l2 = llm();
        MethodAnswer b = run(confused, l2, Map.of());
        // Decision Maker: [LLM], with nothing gathered: the LLM answers from its own knowledge
        assertThat(l2.requests()).extracting(Scripted::kind).containsExactly("roadmap", "answer");
        assertThat(Scripted.user(l2.requests().get(1))).contains(Scripted.ANSWER_NO_DOCS);
        assertThat(b.parseFailures()).containsExactly("decision: NO_ACTION_MARKER I am not sure.; fallback: [LLM]");
    }

    @Test
    void keepingNothingStoresANoteThatAKeptDocumentForTheSameQueryRemoves() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[Planning]";
            case "decision" -> {
                String docs = existing(r);
                yield docs.isEmpty() ? "Thought: a.\nAction: [Retrieval] X"
                        : docs.contains("None relevant information about X") ? "Thought: b.\nAction: [Retrieval] X"
                        : "Thought: c.\nAction: [LLM]";
            }
            case "filter" -> Scripted.user(r).contains("X #11") ? "Thought: t.\nAction: [1]" : "Thought: t.\nAction: []";
            default -> "unexpected " + kind;
        });
        ScriptedBackend llm = llm();
        run(proxy, llm, Map.of());
        LlmRequest second = proxy.requests().stream().filter(r -> Scripted.kind(r).equals("decision")).toList().get(1);
        assertThat(existing(second)).isEqualTo("Document 1 (Title: X): None relevant information about X");
        String answer = Scripted.user(llm.requests().getLast());
        assertThat(answer.substring(answer.indexOf("Now, process the following question:")))
                .contains("Existing documents: Document 1 (Title: T11 X): X #11\n\nQuestion:")
                .doesNotContain("None relevant");
    }

    @Test
    void withoutAnIndexTheQuestionsOwnPassagesAreTheCorpus() {
        QaItem hotpot = new QaItem("h1", "Where was the director of Jaws born?", List.of(
                Document.of("a", "Cincinnati", "Cincinnati is a city in Ohio."),
                Document.of("b", "Jaws (film)", "Jaws is a 1975 film directed by Steven Spielberg."),
                Document.of("c", "Steven Spielberg", "Steven Spielberg was born in Cincinnati, Ohio.")),
                List.of(), List.of(), null, Map.of(), null);
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[Retrieval] Jaws director";
            case "filter" -> "Thought: t.\nAction: [1]";
            default -> "unexpected";
        });
        ScriptedBackend llm = llm();
        var ctx = Scripted.context(proxy, llm, null, "hotpotqa", Map.of(), traces);
        new C3po().answer(hotpot, ctx);
        assertThat(Scripted.user(proxy.requests().get(1))).contains("Document 1 (Title: Jaws (film)): Jaws is a 1975 film")
                .contains("Document 2 (Title: Cincinnati)").contains("Document 3 (Title: Steven Spielberg)");

        QaItem bare = QaItem.of("n1", "Who?", List.of("x"));
        ScriptedBackend untouched = Scripted.backend((kind, r, i) -> "[No Retrieval]");
        assertThatThrownBy(() -> new C3po().answer(bare, Scripted.context(untouched, llm(), null, "nq-open", Map.of(), traces)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--index");
        assertThat(untouched.requests()).isEmpty();
    }

    @Test
    void oneBackendPlaysBothWhenNoProxyIsConfigured() {
        ScriptedBackend one = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[No Retrieval]";
            default -> "Paris.";
        });
        var client = dev.veracity.llm.client.LlmClient.builder(one).traces(traces).build();
        var ctx = new dev.veracity.method.MethodContext(client, dev.veracity.trace.CallContext.of("r", "q1", "c3po"),
                "", false, Map.of());
        MethodAnswer a = new C3po().answer(ITEM.withDocuments(List.of(Document.of("d", "t", "x"))), ctx);
        assertThat(one.requests()).extracting(Scripted::kind).containsExactly("router", "answer");
        assertThat(a.prediction()).isEqualTo("Paris.");
        // one model in every role is C-3PO-ICL: the router's prompt carries the authors' examples (section 6.7)
        assertThat(Scripted.user(one.requests().getFirst())).contains("Here are some examples:\n###\nExample 1\n");

        // few-shot=none: the zero-shot prompts, as before
        ScriptedBackend zero = Scripted.backend((kind, r, i) -> kind.equals("router") ? "[No Retrieval]" : "Paris.");
        var zeroCtx = new dev.veracity.method.MethodContext(dev.veracity.llm.client.LlmClient.builder(zero).build(),
                dev.veracity.trace.CallContext.of("r", "q1", "c3po"), "", false, Map.of("few-shot", "none"));
        new C3po().answer(ITEM.withDocuments(List.of(Document.of("d", "t", "x"))), zeroCtx);
        assertThat(zero.requests()).allSatisfy(r -> assertThat(Scripted.user(r)).doesNotContain("Here are some examples"));
    }

    @Test
    void theRoadmapAndTheAnswerCarryTheAuthorsSeededExamplesAndTheTrainedProxyIsAskedZeroShot() {
        ScriptedBackend proxy = Scripted.backend((kind, r, i) -> switch (kind) {
            case "router" -> "[Planning]";
            case "decision" -> existing(r).isEmpty() ? "Thought: find it.\nAction: [Retrieval] Best Picture 1998"
                    : "Thought: enough.\nAction: [LLM]";
            case "filter" -> "Thought: the first.\nAction: [1]";
            default -> "unexpected " + kind;
        });
        ScriptedBackend llm = llm();
        run(proxy, llm, Map.of());
        String roadmap = Scripted.user(llm.requests().get(0));
        String answer = Scripted.user(llm.requests().get(1));
        C3poPrompts zero = new C3poPrompts("hotpotqa");
        // the authors' LLM_planning_role and (test time) decide_prompt_role: 2 and 3 examples before the question
        assertThat(roadmap).startsWith(Scripted.ROADMAP).contains("Here are some examples:\n###\nExample 1\n")
                .contains("\n\n###\nExample 2\n").doesNotContain("###\nExample 3\n")
                .endsWith(zero.roadmap(Q).text().substring(zero.roadmap(Q).text().indexOf("\n\nNow, process")));
        assertThat(answer).contains("\n\n###\nExample 3\n").doesNotContain("###\nExample 4\n");
        assertThat(proxy.requests()).allSatisfy(r -> assertThat(Scripted.user(r)).doesNotContain("Here are some examples"));
        // seeded: the same run sends the same prompts; another seed draws other examples
        ScriptedBackend again = llm();
        run(proxy, again, Map.of());
        assertThat(Scripted.user(again.requests().get(0))).isEqualTo(roadmap);
        ScriptedBackend seeded = llm();
        run(proxy, seeded, Map.of("few-shot-seed", "7"));
        assertThat(Scripted.user(seeded.requests().get(0))).isNotEqualTo(roadmap);
    }
}
