package dev.veracity.methods.c3po.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.methods.c3po.Agent;
import org.junit.jupiter.api.Test;

/** Eq. 5 on hand-built trees with known leaf rewards: every credit is the exact mean of the leaves below. */
class CreditTest {

    /**
     * Figure 1's example (the paper's figure of the pipeline, "credit 1/2 or 3/4"): a [Retrieval] branch whose two
     * filter actions lead to answers 1 and 0, and a [Planning] branch whose four answers are 1, 1, 0, 1.
     */
    @Test
    void theFigureExampleGivesOneHalfAndThreeQuarters() {
        Node root = Node.root("q");
        Node none = root.child(Agent.ROUTER, 1, "p", "[No Retrieval]", "[No Retrieval]", true);
        none.child(Agent.ANSWER, 3, "p", "a", "a", false).answered(1);
        Node retrieval = root.child(Agent.ROUTER, 1, "p", "[Retrieval] q", "[Retrieval] q", true);
        retrieval.child(Agent.FILTER, 2, "p", "f1", "[1]", false).child(Agent.ANSWER, 4, "p", "a", "a", false).answered(1);
        retrieval.child(Agent.FILTER, 2, "p", "f2", "[2]", false).child(Agent.ANSWER, 4, "p", "b", "b", false).answered(0);
        Node planning = root.child(Agent.ROUTER, 1, "p", "[Planning]", "[Planning]", true);
        Node roadmap = planning.child(Agent.ROADMAP, 2, "p", "plan", "plan", false);
        Node d1 = roadmap.child(Agent.DECISION, 3, "p", "d1", "[Retrieval] x", false);
        Node d2 = roadmap.child(Agent.DECISION, 3, "p", "d2", "[Retrieval] y", false);
        d1.child(Agent.FILTER, 4, "p", "f", "[1]", false).child(Agent.DECISION, 5, "p", "d", "[LLM]", false)
                .child(Agent.ANSWER, 7, "p", "a", "a", false).answered(1);
        d1.child(Agent.FILTER, 4, "p", "g", "[2]", false).child(Agent.DECISION, 5, "p", "d", "[LLM]", false)
                .child(Agent.ANSWER, 7, "p", "a", "a", false).answered(1);
        Node f3 = d2.child(Agent.FILTER, 4, "p", "h", "[]", false);
        f3.child(Agent.DECISION, 5, "p", "d", "[LLM]", false).child(Agent.ANSWER, 7, "p", "b", "b", false).answered(0);
        f3.child(Agent.DECISION, 5, "p", "e", "[LLM]", false).child(Agent.ANSWER, 7, "p", "a", "a", false).answered(1);

        Credit.assign(root);

        assertThat(retrieval.credit()).isEqualTo(0.5);
        assertThat(planning.credit()).isEqualTo(0.75);
        assertThat(roadmap.credit()).isEqualTo(0.75);
        assertThat(d1.credit()).isEqualTo(1.0);
        assertThat(d2.credit()).isEqualTo(0.5);
        assertThat(none.credit()).isEqualTo(1.0);
        assertThat(root.leaves()).isEqualTo(7);
        assertThat(root.rewardSum()).isEqualTo(5.0);
        assertThat(root.credit()).isEqualTo(5.0 / 7);
        assertThat(Credit.nodes(root)).filteredOn(Node::leaf).allSatisfy(l -> assertThat(l.credit()).isEqualTo(l.reward()));
    }

    @Test
    void failedBranchesAreLeavesWithRewardZero() {
        Node root = Node.root("q");
        Node d = root.child(Agent.ROUTER, 1, "p", "[Planning]", "[Planning]", true)
                .child(Agent.ROADMAP, 2, "p", "plan", "plan", false);
        Node ok = d.child(Agent.DECISION, 3, "p", "x", "[LLM]", false);
        ok.child(Agent.ANSWER, 5, "p", "a", "a", false).answered(1);
        d.child(Agent.DECISION, 3, "p", "garbage", null, false).fail(Node.FailureKind.PARSE, "decision: NO_ACTION_MARKER");
        d.child(Agent.DECISION, 3, "p", "[Retrieval] q", "[Retrieval] q", false).fail(Node.FailureKind.RETRIEVAL, "down");

        Credit.assign(root);

        assertThat(d.leaves()).isEqualTo(3);
        assertThat(d.credit()).isEqualTo(1.0 / 3);
        assertThat(ok.credit()).isEqualTo(1.0);
        assertThat(d.children().get(1).credit()).isZero();
        assertThat(d.children().get(1).reward()).isZero();
    }

    @Test
    void aSingleTrajectoryCreditsEveryNodeWithTheFinalReward() {
        Node root = Node.root("q");
        Node n = root;
        for (int depth = 1; depth <= 7; depth++) {
            n = n.child(depth == 1 ? Agent.ROUTER : depth % 2 == 0 ? Agent.FILTER : Agent.DECISION, depth, "p", "o", "a", false);
        }
        n.child(Agent.ANSWER, 9, "p", "a", "a", false).answered(0.25);
        Credit.assign(root);
        assertThat(Credit.nodes(root)).allSatisfy(x -> assertThat(x.credit()).isEqualTo(0.25));
    }
}
