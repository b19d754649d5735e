package dev.veracity.methods.c3po.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.c3po.Agent;
import dev.veracity.methods.c3po.Sampling;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The tree of a scripted rollout: its exact shape per depth (forced first level, K(t) = 2 then 1, deduplicated
 * samples), its credits, failures that end one branch and keep the others, the call budget, the single-trajectory
 * ablation, per-backend concurrency and the files' rows.
 */
class RolloutTest {

    static final QaItem ITEM = QaItem.of("q1", "Who directed Titanic?", List.of("James Cameron"));

    /** Passages "{query} #i", recording each search; fails for {@link #failOn}. */
    static final class Search implements Retriever {
        final List<String> searches = Collections.synchronizedList(new ArrayList<>());
        volatile String failOn;

        @Override
        public List<Passage> search(String query, int k) {
            searches.add(query + "|" + k);
            if (query.equals(failOn)) {
                throw new IllegalStateException("index unavailable");
            }
            List<Passage> out = new ArrayList<>();
            for (int i = 1; i <= k; i++) {
                out.add(new Passage(query + i, "T" + i, query + " #" + i, 1.0 / i));
            }
            return out;
        }
    }

    static String user(LlmRequest r) {
        return r.messages().getLast().content();
    }

    /** The prompt's state: after the instructions and any few-shot examples. */
    static String state(LlmRequest r) {
        String p = user(r);
        int at = p.indexOf("Now, process the following question:");
        return at < 0 ? p : p.substring(at);
    }

    static boolean emptyExisting(LlmRequest r) {
        return state(r).contains("Existing Documents: \n\nPlan:");
    }

    /**
     * The proxy: a filter keeps document sample+1; a Decision Maker with no documents answers [LLM] in sample 0 and
     * retrieves "titanic director" in sample 1, with documents it answers [LLM].
     */
    static ScriptedBackend proxy() {
        return ScriptedBackend.perSample(RolloutTest::proxyOut);
    }

    static String proxyOut(LlmRequest r, int i) {
        String p = user(r);
        if (p.startsWith("You are an intelligent assistant tasked with analyzing the retrieved documents")) {
            return "Thought: document " + (i + 1) + " helps.\nAction: [" + (i + 1) + "]";
        }
        if (p.startsWith("You are an intelligent assistant tasked with determining")) {
            return !emptyExisting(r) ? "Thought: enough.\nAction: [LLM]"
                    : i == 0 ? "Thought: I know it.\nAction: [LLM]" : "Thought: find the director.\nAction: [Retrieval] titanic director";
        }
        if (p.startsWith("You are an intelligent assistant tasked with evaluating")) {
            return "[No Retrieval]";
        }
        return "unexpected";
    }

    /** The LLM: roadmap "Plan {sample}"; with documents it answers right, without it answers wrong. */
    static ScriptedBackend llm() {
        return ScriptedBackend.perSample(RolloutTest::llmOut);
    }

    static String llmOut(LlmRequest r, int i) {
        if (user(r).startsWith("You are an expert assistant")) {
            return "Plan " + i + ": retrieve the director of Titanic.";
        }
        return state(r).contains("Existing documents: Document 1") ? "It was directed by James Cameron." : "Steven Spielberg.";
    }

    private final Search search = new Search();

    private MethodContext ctx(ScriptedBackend proxy, ScriptedBackend llm, int proxyConcurrency) {
        LlmClient p = LlmClient.builder(proxy).concurrency(proxyConcurrency).build();
        LlmClient l = LlmClient.builder(llm).concurrency(16).build();
        return new MethodContext(l, CallContext.of("run", "q1", "c3po"), "hotpotqa", false, Map.of(), search, null)
                .withModel(Agent.PROXY, p);
    }

    private Tree rollout(RolloutSettings s, ScriptedBackend proxy, ScriptedBackend llm) {
        return new Rollout(s, LeafReward.AUTHORS_ACCURACY).run(ITEM, ctx(proxy, llm, 8));
    }

    @Test
    void theScriptedTreeHasExactlyTheExpectedNodesPerDepth() {
        ScriptedBackend proxy = proxy();
        ScriptedBackend llm = llm();
        Tree t = rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), proxy, llm);

        // 0: question; 1: three forced router actions; 2: two single-pass filters + two roadmaps;
        // 3: the direct answer + four decisions (2 roadmaps x K(3)=2); 4: two single-pass answers + two filters x K(4)=2;
        // 5: two early answers + four decisions (K(5)=1); 6: none; 7: four answers
        assertThat(t.nodesPerDepth()).containsExactly(1, 3, 4, 5, 6, 6, 0, 4);
        assertThat(t.leaves()).hasSize(9).allSatisfy(l -> assertThat(l.agent()).isEqualTo(Agent.ANSWER));
        assertThat(t.proxyCalls()).isEqualTo(1 + 2 + 2 + 4);
        assertThat(t.llmCalls()).isEqualTo(1 + 9);
        // the single-pass branch searches the question; both planning chains share one search of their query
        assertThat(search.searches).containsExactlyInAnyOrder("Who directed Titanic?|10", "titanic director|10");
        assertThat(t.searches()).isEqualTo(2);
        assertThat(t.truncated()).isFalse();

        Node root = t.root();
        List<Node> routers = root.children();
        assertThat(routers).extracting(Node::action).containsExactly("[No Retrieval]", "[Retrieval] Who directed Titanic?",
                "[Planning]");
        assertThat(routers).allSatisfy(n -> assertThat(n.forced()).isTrue());
        assertThat(routers).extracting(Node::credit).containsExactly(0.0, 1.0, 2.0 / 3);
        assertThat(root.credit()).isEqualTo(6.0 / 9);
        Node roadmap = routers.get(2).children().getFirst();
        assertThat(roadmap.agent()).isEqualTo(Agent.ROADMAP);
        assertThat(roadmap.children()).extracting(Node::action).containsExactly("[LLM]", "[Retrieval] titanic director");
        assertThat(roadmap.children()).extracting(Node::credit).containsExactly(0.0, 1.0);

        // the proxy sampled at 0.6 with K actions per call; the roadmap at 0.3 with two; the answers greedy, one each
        assertThat(proxy.requests()).allSatisfy(r -> assertThat(r.temperature()).isEqualTo(0.6));
        assertThat(proxy.requests()).extracting(LlmRequest::n).containsExactlyInAnyOrder(2, 2, 2, 2, 2, 1, 1, 1, 1);
        assertThat(llm.requests()).filteredOn(r -> user(r).startsWith("You are an expert"))
                .singleElement().satisfies(r -> assertThat(r.n()).isEqualTo(2))
                .satisfies(r -> assertThat(r.temperature()).isEqualTo(0.3));
    }

    @Test
    void identicalSamplesAreOneChild() {
        ScriptedBackend sameFilter = ScriptedBackend.perSample((r, i) -> user(r).contains("retrieved documents")
                ? "Thought: one.\nAction: [1]" : "Thought: enough.\nAction: [LLM]");
        Tree t = rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), sameFilter, llm());
        Node single = t.root().children().get(1);
        assertThat(single.children()).hasSize(1);
    }

    @Test
    void aFailedSearchEndsItsBranchAndTheOthersGoOn() {
        search.failOn = "titanic director";
        Tree t = rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), proxy(), llm());
        List<Node> failed = t.leaves().stream().filter(l -> l.failure() != null).toList();
        assertThat(failed).hasSize(2).allSatisfy(l -> {
            assertThat(l.failure()).isEqualTo(Node.FailureKind.RETRIEVAL);
            assertThat(l.agent()).isEqualTo(Agent.DECISION);
            assertThat(l.reward()).isZero();
        });
        // the single-pass branch and the early answers are untouched
        assertThat(t.root().children().get(1).credit()).isEqualTo(1.0);
        assertThat(t.leaves()).filteredOn(l -> l.agent() == Agent.ANSWER).hasSize(5);
        assertThat(t.root().children().get(2).credit()).isZero();

        JsonNode line = TreeJson.tree(t, "paper").toJson();
        assertThat(line.get("failed_leaves").asInt()).isEqualTo(2);
        assertThat(line.get("nodes").findValuesAsText("failure")).containsExactly("retrieval", "retrieval");
        // a node the environment ended is not trained on
        assertThat(TreeJson.records(t, "r")).noneMatch(r -> r.has("failure"));
    }

    @Test
    void anUnparseableOutputIsAFailureLeafWithItsResponse() {
        ScriptedBackend hallucinating = ScriptedBackend.perSample((r, i) -> user(r).contains("retrieved documents")
                ? (i == 0 ? "Thought: eleven.\nAction: [11]" : "Thought: two.\nAction: [2]")
                : emptyExisting(r) ? "Thought: x.\nAction: [Retrieval] titanic director" : "Thought: ok.\nAction: [LLM]");
        Tree t = rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), hallucinating, llm());
        List<Node> parse = t.leaves().stream().filter(l -> l.failure() == Node.FailureKind.PARSE).toList();
        assertThat(parse).isNotEmpty().allSatisfy(l -> {
            assertThat(l.response()).isEqualTo("Thought: eleven.\nAction: [11]");
            assertThat(l.failureDetail()).isEqualTo("filter: HALLUCINATED_INDEX 11 of 10");
        });
        assertThat(TreeJson.records(t, "r")).filteredOn(r -> r.has("failure"))
                .allSatisfy(r -> assertThat(r.get("credit").asDouble()).isZero()).isNotEmpty();
    }

    @Test
    void theCallBudgetBoundsATreeAndSaysSo() {
        Tree t = rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER).withMaxCalls(4), proxy(), llm());
        assertThat(t.calls()).isLessThanOrEqualTo(4);
        assertThat(t.truncated()).isTrue();
        assertThat(t.leaves()).anyMatch(l -> l.failure() == Node.FailureKind.BUDGET);
    }

    @Test
    void withoutTheTreeOneSampledTrajectoryCreditsEveryNodeWithTheFinalReward() {
        ScriptedBackend proxy = proxy();
        Tree t = rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER).singleTrajectory(), proxy, llm());
        assertThat(t.nodesPerDepth()).containsExactly(1, 1, 0, 1);
        assertThat(t.root().children().getFirst().forced()).isFalse();
        assertThat(proxy.requests()).singleElement().satisfies(r -> assertThat(r.n()).isEqualTo(1));
        assertThat(t.nodes()).allSatisfy(n -> assertThat(n.credit()).isZero()); // "Steven Spielberg." is wrong
    }

    @Test
    void branchesRunConcurrentlyWithinEachBackendsLimit() {
        // unbounded, the two roadmaps' Decision Maker calls run together; the LLM's direct answer and roadmap too
        ScriptedBackend proxy = proxy().latency(Duration.ofMillis(150));
        ScriptedBackend llm = llm().latency(Duration.ofMillis(150));
        new Rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), LeafReward.AUTHORS_ACCURACY)
                .run(ITEM, ctx(proxy, llm, 8));
        assertThat(proxy.peakConcurrency()).isGreaterThanOrEqualTo(2);
        assertThat(llm.peakConcurrency()).isGreaterThanOrEqualTo(2);

        // the proxy's limit of 1 holds its calls to one at a time and does not hold the LLM's
        ScriptedBackend bounded = proxy().latency(Duration.ofMillis(150));
        ScriptedBackend llm2 = llm().latency(Duration.ofMillis(150));
        Tree t = new Rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), LeafReward.AUTHORS_ACCURACY)
                .run(ITEM, ctx(bounded, llm2, 1));
        assertThat(bounded.peakConcurrency()).isEqualTo(1);
        assertThat(llm2.peakConcurrency()).isGreaterThanOrEqualTo(2);
        assertThat(t.nodesPerDepth()).containsExactly(1, 3, 4, 5, 6, 6, 0, 4);
    }

    @Test
    void theAuthorsPresetStopsAtThirteenAsTheirSamplingScriptAndMusiqueByItsHops() {
        // their offline_base_instruct.sh passes --max_depth 13 (9 is only argparse's default); search.py raises
        // MuSiQue's to max(2 x hops + 5, max depth), which 13 already covers for MuSiQue's 2 to 4 hops
        RolloutSettings authors = RolloutSettings.of(RolloutSettings.Preset.AUTHORS);
        assertThat(authors.limits(ITEM, "hotpotqa").maxDepth()).isEqualTo(13);
        assertThat(authors.limits(QaItem.of("4hop1__123_456", "q", List.of("a")), "musique").maxDepth()).isEqualTo(13);
        assertThat(authors.limits(QaItem.of("2hop__1_2", "q", List.of("a")), "musique").maxDepth()).isEqualTo(13);
        assertThat(authors.limits(QaItem.of("5hop__1_2", "q", List.of("a")), "musique").maxDepth()).isEqualTo(15);
        assertThat(RolloutSettings.of(RolloutSettings.Preset.PAPER).limits(ITEM, "musique").maxDepth()).isEqualTo(13);
        assertThat(authors.branching(4)).isEqualTo(2);
        assertThat(authors.branching(5)).isEqualTo(1);

        // a Decision Maker that always retrieves: under max depth 13 the state at depth 10 forces [LLM], answer at 13
        ScriptedBackend searching = ScriptedBackend.perSample((r, i) -> user(r).contains("retrieved documents")
                ? "Thought: t.\nAction: [1]" : "Thought: more.\nAction: [Retrieval] q" + user(r).length() + "x" + i);
        Tree t = new Rollout(authors, LeafReward.AUTHORS_ACCURACY).run(ITEM, ctx(searching, llm(), 8));
        assertThat(t.leaves()).filteredOn(l -> l.agent() == Agent.ANSWER).extracting(Node::depth).contains(13)
                .allMatch(d -> d <= 13);
        assertThat(t.maxDepth()).isEqualTo(13);
    }

    @Test
    void recordsAreThePerAgentSchemaWithTheCreditAsReward() {
        Tree t = rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), proxy(), llm());
        List<ObjectNode> records = TreeJson.records(t, "run-1");
        // 3 forced routers + 2 single-pass filters + 4 decisions + 4 filters + 4 decisions
        assertThat(records).hasSize(17);
        assertThat(records).extracting(r -> r.get("role").asText()).containsOnly("router", "filter", "decision");
        ObjectNode planning = records.stream().filter(r -> r.get("response").asText().equals("[Planning]")).findFirst()
                .orElseThrow();
        assertThat(planning.get("reward").asDouble()).isEqualTo(2.0 / 3);
        assertThat(planning.get("credit").asDouble()).isEqualTo(2.0 / 3);
        assertThat(planning.get("leaves").asInt()).isEqualTo(6);
        assertThat(planning.get("forced").asBoolean()).isTrue();
        assertThat(planning.get("parent_id").asText()).isEqualTo("0");
        assertThat(planning.get("messages").get(0).get("role").asText()).isEqualTo("system");
        assertThat(planning.get("messages").get(1).get("content").asText()).startsWith("You are an intelligent assistant"
                + " tasked with evaluating");
        assertThat(records).allSatisfy(r -> {
            assertThat(r.get("run").asText()).isEqualTo("run-1");
            assertThat(r.get("question_id").asText()).isEqualTo("q1");
            assertThat(r.get("method").asText()).isEqualTo("c3po");
        });

        JsonNode line = TreeJson.tree(t, "paper").toJson();
        assertThat(line.get("nodes")).hasSize(t.nodes().size());
        assertThat(line.get("nodes").get(0).get("parent").isNull()).isTrue();
        assertThat(line.get("nodes").get(0).get("agent").asText()).isEqualTo("question");
        assertThat(line.get("correct_leaves").asInt()).isEqualTo(6);

        List<ObjectNode> seed = TreeJson.seedTrajectories(t, 4, LeafReward.AUTHORS_ACCURACY);
        // four correct trajectories: the two single-pass ones (router, filter) and two planning ones (router,
        // decision, filter, decision) under the first roadmap; each step once: the single-pass router, the planning
        // router and the first Decision Maker are shared, so 1 + 2 filters, 1 + 1 + 2 filters + 2 decisions
        assertThat(seed.stream().map(r -> r.get("trajectory").asText()).distinct()).hasSize(4);
        assertThat(seed).hasSize(3 + 6);
        assertThat(seed.stream().map(r -> List.of(r.get("instruction").asText(), r.get("output").asText())).distinct())
                .hasSize(seed.size());
        assertThat(seed).extracting(r -> r.get("output").asText()).filteredOn(o -> o.startsWith("[")).containsExactly(
                "[Retrieval] Who directed Titanic?", "[Planning]");
        assertThat(seed).allSatisfy(r -> assertThat(r.get("system").asText()).isEqualTo("You are a helpful assistant."));
    }

    @Test
    void seedDataIsAskedZeroShotAndIgnoresGoldAnswersThatNormaliseToNothing() {
        // one model in every role (C-3PO-ICL, the authors' seed collection): every prompt sent carries examples, the
        // seed rows hold the zero-shot prompt the trained proxy will be asked; records hold what was sent
        ScriptedBackend both = ScriptedBackend.perSample((r, i) -> {
            String p = user(r);
            return p.startsWith("You are an expert assistant") ? "Plan " + i + ": retrieve the director of Titanic."
                    : p.startsWith("You are a knowledgeable assistant") || p.contains("\nBased on your knowledge, answer the question:\n")
                    ? llmOut(r, i) : proxyOut(r, i);
        });
        LlmClient one = LlmClient.builder(both).concurrency(8).build();
        MethodContext icl = new MethodContext(one, CallContext.of("run", "q1", "c3po"), "hotpotqa", false, Map.of(),
                search, null);
        Tree t = new Rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), LeafReward.AUTHORS_ACCURACY).run(ITEM, icl);
        assertThat(both.requests()).allSatisfy(r -> assertThat(user(r).contains("Here are some examples:"))
                .as(user(r).substring(0, 60)).isEqualTo(!user(r).contains("Based on your knowledge, answer")));
        List<ObjectNode> seed = TreeJson.seedTrajectories(t, 4, LeafReward.AUTHORS_ACCURACY);
        assertThat(seed).isNotEmpty().allSatisfy(r -> assertThat(r.get("instruction").asText())
                .doesNotContain("Here are some examples").doesNotContain("###\nExample 1"));
        assertThat(TreeJson.records(t, "r")).filteredOn(r -> !r.path("forced").asBoolean()).isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("messages").get(1).get("content").asText())
                        .contains("Here are some examples:"));
        assertThat(t.nodes()).filteredOn(n -> n.prompt() != null)
                .allSatisfy(n -> assertThat(n.prompt().replaceAll("(?s)Here are some examples:\n.*?\n\n(?=Now, process)", ""))
                        .isEqualTo(n.zeroShotPrompt()));

        // "A" normalises to "": the authors' substring rule credits every answer with it, seed data does not
        QaItem article = QaItem.of("q2", "Who directed Titanic?", List.of("A"));
        Tree wrong = new Rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), LeafReward.AUTHORS_ACCURACY)
                .run(article, ctx(proxy(), llm(), 8));
        assertThat(wrong.leaves()).filteredOn(l -> l.agent() == Agent.ANSWER).allSatisfy(l -> assertThat(l.reward()).isOne());
        assertThat(TreeJson.seedTrajectories(wrong, 4, LeafReward.AUTHORS_ACCURACY)).isEmpty();
        // beside a real gold answer, only the real one decides: the 6 right answers of the 9 seed, not the wrong 3
        QaItem both2 = QaItem.of("q3", "Who directed Titanic?", List.of("the", "James Cameron"));
        Tree mixed = new Rollout(RolloutSettings.of(RolloutSettings.Preset.PAPER), LeafReward.AUTHORS_ACCURACY)
                .run(both2, ctx(proxy(), llm(), 8));
        assertThat(TreeJson.seedTrajectories(mixed, 9, LeafReward.AUTHORS_ACCURACY).stream()
                .map(r -> r.get("trajectory").asText()).distinct()).hasSize(6);
        assertThat(TreeJson.seedGold(List.of("A", "the", "James Cameron", " ! "))).containsExactly("James Cameron");
    }

    @Test
    void theAuthorsAccuracyIsANormalisedGoldSubstringOfTheNormalisedResponse() {
        LeafReward acc = LeafReward.AUTHORS_ACCURACY;
        assertThat(acc.score("q", "It was directed by JAMES  Cameron!", List.of("James Cameron"))).isEqualTo(1.0);
        assertThat(acc.score("q", "The answer: the Beatles.", List.of("Beatles"))).isEqualTo(1.0);
        assertThat(acc.score("q", "Cameron", List.of("James Cameron"))).isZero();
        assertThat(acc.score("q", "James#@Cameron", List.of("James Cameron"))).isEqualTo(1.0);
        assertThat(acc.score("q", "anything", List.of("The"))).isEqualTo(1.0); // their empty-gold behaviour, kept
        assertThat(acc.score("q", "x", List.of("y", "x"))).isEqualTo(1.0);
        assertThat(new Sampling(0.6, 1.0, 2048)).isEqualTo(Sampling.PROXY_ROLLOUT);
    }
}
