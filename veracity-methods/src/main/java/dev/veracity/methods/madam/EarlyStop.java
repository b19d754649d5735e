package dev.veracity.methods.madam;

import java.util.List;

/**
 * The early stop of the authors' code: from round 2, the debate has converged when every agent's normalised answer
 * contains, or is contained in, its previous one (looser than the paper's r_i(t) = r_i(t-1), Section 4). The
 * previous round's aggregation is then final, so a converged round makes no aggregator call: n agents, one
 * aggregation, n agents again = 2n + 1 calls at the least, 3n + 3 at the most for T = 3.
 */
public final class EarlyStop {

    private EarlyStop() {
    }

    public static boolean converged(List<AgentOutput> previous, List<AgentOutput> current) {
        if (previous == null || previous.size() != current.size()) {
            return false;
        }
        for (int i = 0; i < current.size(); i++) {
            if (!previous.get(i).parsed() || !current.get(i).parsed()) {
                return false;
            }
            String before = AgentOutputParser.normalized(previous.get(i).answer());
            String now = AgentOutputParser.normalized(current.get(i).answer());
            if (!(before.contains(now) || now.contains(before))) {
                return false;
            }
        }
        return true;
    }
}
