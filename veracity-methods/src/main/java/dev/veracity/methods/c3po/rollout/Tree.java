package dev.veracity.methods.c3po.rollout;

import java.util.List;

/**
 * One question's rollout tree, credited.
 *
 * @param questionId   the question's id
 * @param question     the question
 * @param gold         the gold answers the leaves were scored against
 * @param maxDepth     the max depth this question ran under
 * @param root         the question node
 * @param proxyCalls   proxy calls made (a call samples K actions at once)
 * @param llmCalls     LLM calls made
 * @param searches     retriever searches (the per-question cache answers the rest)
 * @param truncated    whether the call budget cut branches (recorded as failures)
 * @param nanos        wall time of the rollout
 */
public record Tree(String questionId, String question, List<String> gold, int maxDepth, Node root, int proxyCalls,
                   int llmCalls, int searches, boolean truncated, long nanos) {

    public Tree {
        gold = List.copyOf(gold);
    }

    /** Every node, parents before children. */
    public List<Node> nodes() {
        return Credit.nodes(root);
    }

    public List<Node> leaves() {
        return nodes().stream().filter(Node::leaf).toList();
    }

    public int calls() {
        return proxyCalls + llmCalls;
    }

    /** Nodes per depth, index = depth (0 is the question). */
    public int[] nodesPerDepth() {
        List<Node> all = nodes();
        int max = all.stream().mapToInt(Node::depth).max().orElse(0);
        int[] out = new int[max + 1];
        all.forEach(n -> out[n.depth()]++);
        return out;
    }
}
