package dev.veracity.methods.c3po.rollout;

import dev.veracity.llm.Completion;
import dev.veracity.methods.c3po.Agent;
import dev.veracity.methods.c3po.C3poPrompts;
import dev.veracity.methods.c3po.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One node of a rollout tree: the question (the root), or an agent's action (s, a) with the state it saw as prompt.
 * A leaf is an LLM answer with its reward, or a branch that ended in a failure (reward 0, the failure recorded).
 * Built by one expanding thread per node; read after the tree is complete.
 */
public final class Node {

    /** What ended a branch that did not reach an answer; null for answers and inner nodes. */
    public enum FailureKind {
        /** The proxy's output did not parse (the authors' "Invalid Format" / "Invalid Action" ...). */
        PARSE,
        /** A non-answer node deeper than the max depth (the authors' "Max Depth"). */
        MAX_DEPTH,
        /** A model call failed for good. */
        CALL,
        /** The retriever failed. */
        RETRIEVAL,
        /** The tree's call budget was spent. */
        BUDGET;

        /** Whether the environment failed rather than the agent (the node's own record is then not trained on). */
        public boolean environment() {
            return this == CALL || this == RETRIEVAL || this == BUDGET;
        }
    }

    final String id;
    final Node parent;
    final Agent agent;
    final int depth;
    final String prompt;
    final String zeroShotPrompt;
    final String response;
    final String action;
    final boolean forced;
    /** The sampled completions whose text this node is (identical samples are one node); empty for forced nodes. */
    final List<Completion> samples = new ArrayList<>();
    final List<Node> children = Collections.synchronizedList(new ArrayList<>());
    FailureKind failure;
    String failureDetail;
    Double reward;
    State next;
    int leaves;
    double rewardSum;

    Node(String id, Node parent, Agent agent, int depth, C3poPrompts.Prompt prompt, String response, String action,
         boolean forced) {
        this.id = id;
        this.parent = parent;
        this.agent = agent;
        this.depth = depth;
        this.prompt = prompt == null ? null : prompt.text();
        this.zeroShotPrompt = prompt == null ? null : prompt.zeroShot();
        this.response = response;
        this.action = action;
        this.forced = forced;
    }

    static Node root(String question) {
        return new Node("0", null, null, 0, null, null, question, false);
    }

    /** A new child with a zero-shot prompt. */
    Node child(Agent agent, int depth, String prompt, String response, String action, boolean forced) {
        return child(agent, depth, prompt == null ? null : C3poPrompts.Prompt.of(prompt), response, action, forced);
    }

    /** A new child of this node, numbered after its siblings. */
    Node child(Agent agent, int depth, C3poPrompts.Prompt prompt, String response, String action, boolean forced) {
        synchronized (children) {
            Node c = new Node(id + "." + children.size(), this, agent, depth, prompt, response, action, forced);
            children.add(c);
            return c;
        }
    }

    /** Ends the branch here with reward 0. */
    Node fail(FailureKind kind, String detail) {
        this.failure = kind;
        this.failureDetail = detail;
        this.reward = 0.0;
        this.next = null;
        return this;
    }

    /** An answer leaf. */
    Node answered(double r) {
        this.reward = r;
        this.next = null;
        return this;
    }

    public String id() {
        return id;
    }

    /** The parent's id; null for the root. */
    public String parentId() {
        return parent == null ? null : parent.id;
    }

    /** The acting agent; null for the root (the question). */
    public Agent agent() {
        return agent;
    }

    public int depth() {
        return depth;
    }

    /** The user message the agent saw (the system message is {@code C3poPrompts.SYSTEM}); null for the root and forced nodes without a prompt. */
    public String prompt() {
        return prompt;
    }

    /**
     * The same prompt without few-shot examples: what a trained proxy is asked (equal to {@link #prompt()} for a
     * zero-shot agent); null where {@link #prompt()} is.
     */
    public String zeroShotPrompt() {
        return zeroShotPrompt;
    }

    /** The model's output; for a forced router action the action written for it; null when there is none. */
    public String response() {
        return response;
    }

    /** The parsed action, the roadmap, or the answer text; the question for the root. */
    public String action() {
        return action;
    }

    /**
     * The completions this node's response came from, in sample order: one, or several when identical samples
     * were merged into it; each with its token ids, logprobs and the server's response id where it has them. Empty
     * for a forced action and for nodes without a call.
     */
    public List<Completion> samples() {
        return List.copyOf(samples);
    }

    /** Whether the action was forced (the deterministic first level), not sampled. */
    public boolean forced() {
        return forced;
    }

    public List<Node> children() {
        return List.copyOf(children);
    }

    public boolean leaf() {
        return children.isEmpty();
    }

    public FailureKind failure() {
        return failure;
    }

    public String failureDetail() {
        return failureDetail;
    }

    /** A leaf's reward; null for inner nodes. */
    public Double reward() {
        return leaf() ? reward : null;
    }

    /** The number of leaves below (1 for a leaf), set by {@link Credit#assign}. */
    public int leaves() {
        return leaves;
    }

    /** The sum of their rewards, set by {@link Credit#assign}. */
    public double rewardSum() {
        return rewardSum;
    }

    /** Eq. 5: the mean reward of the leaves reachable from this node. */
    public double credit() {
        return leaves == 0 ? 0.0 : rewardSum / leaves;
    }

    /** The nodes from the root's first child down to this one. */
    public List<Node> path() {
        List<Node> out = new ArrayList<>();
        for (Node n = this; n != null && n.parent != null; n = n.parent) {
            out.addFirst(n);
        }
        return out;
    }

    @Override
    public String toString() {
        return id + " " + (agent == null ? "question" : agent.role()) + "@" + depth + " " + action;
    }
}
