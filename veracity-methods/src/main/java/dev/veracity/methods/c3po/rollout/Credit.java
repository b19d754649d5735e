package dev.veracity.methods.c3po.rollout;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Monte Carlo credit assignment (eq. 5): r_credit(s, a) = the mean of R_l over the leaves l reachable from the
 * node, exactly (leaf counts and reward sums, one division per node; 0/1 rewards keep exact sums). A branch that
 * ended in a failure is a leaf with reward 0, so it lowers the credit of every node above it.
 */
public final class Credit {

    private Credit() {
    }

    /** Sets every node's leaf count and reward sum, bottom-up, without recursion (a chain may be long). */
    public static void assign(Node root) {
        List<Node> order = new ArrayList<>();
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            order.add(n);
            n.children().forEach(stack::push);
        }
        for (int i = order.size() - 1; i >= 0; i--) {
            Node n = order.get(i);
            if (n.leaf()) {
                if (n.reward == null) {
                    throw new IllegalStateException("leaf " + n.id + " has no reward");
                }
                n.leaves = 1;
                n.rewardSum = n.reward;
            } else {
                int leaves = 0;
                double sum = 0;
                for (Node c : n.children()) {
                    leaves += c.leaves;
                    sum += c.rewardSum;
                }
                n.leaves = leaves;
                n.rewardSum = sum;
            }
        }
    }

    /** Every node of the tree, parents before children, siblings in order. */
    public static List<Node> nodes(Node root) {
        List<Node> out = new ArrayList<>();
        Deque<Node> queue = new ArrayDeque<>();
        queue.add(root);
        while (!queue.isEmpty()) {
            Node n = queue.poll();
            out.add(n);
            queue.addAll(n.children());
        }
        return out;
    }
}
