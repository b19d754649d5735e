package dev.veracity.methods.c3po.rollout;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.method.AgentRecord;
import dev.veracity.method.RolloutTree;
import dev.veracity.methods.c3po.Agent;
import dev.veracity.methods.c3po.Agents;
import dev.veracity.methods.c3po.C3poPrompts;
import dev.veracity.qa.AnswerNormalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A credited tree as the rollout's output files hold it.
 * <ul>
 *   <li>{@link #tree}: one line of {@code trees.jsonl}, a {@link RolloutTree}: {@code {"schema_version", "id",
 *       "question", "gold", "max_depth", "nodes": [...], "calls", ...}}, each node {@code {"id", "parent" (null for
 *       the root), "agent" (question|router|filter|decision|llm), "role" (router|filter|decision|roadmap|answer),
 *       "depth", "action", "credit", "leaves"}} plus {@code "reward"} on leaves, {@code "failure"} on failed ones and
 *       {@code "forced"} on the deterministic first level;</li>
 *   <li>{@link #records}: section 5.2's node regroup, one training record per proxy node in the per-agent schema
 *       ({@link AgentRecord}: {@code run, question_id, method, role, node_id, parent_id, messages, response, reward,
 *       credit}, the token fields when the call returned them, plus {@code depth, tree_id, leaves, action, forced,
 *       failure}); {@code reward} is the node's credit, the reward
 *       PPO trains the node on (eq. 6-7). Nodes whose branch the environment ended (a failed call or search, the
 *       budget) are left out: their 0 says nothing about the agent (their ancestors still count it);</li>
 *   <li>{@link #seedTrajectories}: the supervised warm-up's rejection-sampled seed data (section 5.2): the proxy
 *       steps of up to {@code n} trajectories whose answer is correct (reward 1), each step once, in LLaMA-Factory's
 *       alpaca format ({@code system, instruction, input, output}), the prompts zero-shot as the trained proxy will
 *       be asked them.</li>
 * </ul>
 */
public final class TreeJson {

    public static final ObjectMapper JSON = new ObjectMapper();

    private TreeJson() {
    }

    /** The tree as its line of {@code trees.jsonl}. */
    public static RolloutTree tree(Tree t, String preset) {
        List<RolloutTree.Node> nodes = new ArrayList<>();
        for (Node n : t.nodes()) {
            nodes.add(new RolloutTree.Node(n.id(), n.parentId(), n.agent() == null ? "question" : n.agent().treeName(),
                    n.agent() == null ? null : n.agent().role(), n.depth(), n.action(), n.credit(), n.leaves(),
                    n.leaf() ? n.reward() : null,
                    n.failure() == null ? null : n.failure().name().toLowerCase(Locale.ROOT),
                    n.failure() == null ? null : n.failureDetail(), n.forced() ? Boolean.TRUE : null));
        }
        List<Node> leaves = t.leaves();
        int correct = (int) leaves.stream().filter(l -> l.failure() == null && l.reward() != null && l.reward() >= 1.0)
                .count();
        int failed = (int) leaves.stream().filter(l -> l.failure() != null).count();
        return new RolloutTree(null, t.questionId(), t.question(), t.gold(), preset, t.maxDepth(), nodes, leaves.size(),
                correct, failed, new RolloutTree.Calls(t.proxyCalls(), t.llmCalls(), t.searches()), t.truncated(),
                Math.round(t.nanos() / 1e4) / 100.0);
    }

    /**
     * Whether a node is trained on: a proxy node with a response whose branch the environment did not end (the
     * nodes {@link #records} writes, and the interactions online training rewards).
     */
    public static boolean trained(Node n) {
        return n.agent() != null && n.agent().proxy() && n.response() != null
                && (n.failure() == null || !n.failure().environment());
    }

    /** One record per proxy node with a response whose branch the environment did not end. */
    public static List<ObjectNode> records(Tree t, String run) {
        List<ObjectNode> out = new ArrayList<>();
        for (Node n : t.nodes()) {
            if (!trained(n)) {
                continue;
            }
            // the one record schema, the node's first sample giving token ids and logprobs where it has them
            ObjectNode r = new AgentRecord(run, t.questionId(), "c3po", n.agent().role(), n.id(), n.parentId(),
                    Agents.messages(n.prompt()), n.response(), n.credit(), n.credit(), null, null, null, null)
                    .withTokens(n.samples().isEmpty() ? null : n.samples().getFirst()).toJson();
            r.put("depth", n.depth());
            r.put("tree_id", t.questionId());
            r.put("leaves", n.leaves());
            if (n.action() != null) {
                r.put("action", n.action());
            }
            if (n.forced()) {
                r.put("forced", true);
            }
            if (n.failure() != null) {
                r.put("failure", n.failure().name().toLowerCase(Locale.ROOT));
            }
            out.add(r);
        }
        return out;
    }

    /**
     * The proxy steps of the first {@code n} correct trajectories (in node order), one LLaMA-Factory alpaca row per
     * step: {@code system}, {@code instruction} (the agent's prompt as a trained proxy is asked it: without few-shot
     * examples), empty {@code input}, {@code output} (its response), with {@code agent}, {@code question_id} and
     * {@code trajectory} (the answer's node id) for bookkeeping.
     * <ul>
     *   <li>Correct: the answer's reward >= 1 against the gold answers that do not normalise to nothing (SQuAD
     *       normalisation, as the authors' accuracy): a gold answer such as "A" or "the" normalises to "", which the
     *       authors' substring rule finds in every answer, so it would make a wrong trajectory a seed. Without such
     *       gold answers the leaves' reward decides; a question whose every gold answer normalises to nothing has no
     *       seed data.</li>
     *   <li>Each step once: the trajectories of a question share their first steps (the router's, the roadmap's
     *       Decision Maker ...), and a step already written for the question (the same instruction and output) is
     *       not written again.</li>
     * </ul>
     */
    public static List<ObjectNode> seedTrajectories(Tree t, int n, LeafReward reward) {
        List<String> gold = seedGold(t.gold());
        if (gold.isEmpty()) {
            return List.of();
        }
        boolean rescore = gold.size() != t.gold().size();
        List<ObjectNode> out = new ArrayList<>();
        Set<List<String>> written = new HashSet<>();
        int taken = 0;
        for (Node leaf : t.leaves()) {
            if (taken >= n) {
                break;
            }
            if (leaf.failure() != null || leaf.agent() != Agent.ANSWER || leaf.reward() == null) {
                continue;
            }
            double r = rescore ? reward.score(t.question(), leaf.response(), gold) : leaf.reward();
            if (r < 1.0) {
                continue;
            }
            taken++;
            for (Node step : leaf.path()) {
                if (!step.agent().proxy() || !written.add(List.of(step.zeroShotPrompt(), step.response()))) {
                    continue;
                }
                ObjectNode row = JSON.createObjectNode();
                row.put("system", C3poPrompts.SYSTEM);
                row.put("instruction", step.zeroShotPrompt());
                row.put("input", "");
                row.put("output", step.response());
                row.put("agent", step.agent().role());
                row.put("question_id", t.questionId());
                row.put("trajectory", leaf.id());
                out.add(row);
            }
        }
        return out;
    }

    /** The gold answers that seed data may be judged against: those that do not normalise to nothing. */
    public static List<String> seedGold(List<String> gold) {
        return gold.stream().filter(g -> !AnswerNormalizer.squad(g).isEmpty()).toList();
    }
}
