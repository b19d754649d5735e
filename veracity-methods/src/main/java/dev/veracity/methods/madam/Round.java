package dev.veracity.methods.madam;

import java.util.List;

/**
 * One debate round.
 *
 * @param number      1..T
 * @param agents      each agent's output, in document order
 * @param aggregation the aggregation of this round, or null when the round converged (the previous one is final)
 */
public record Round(int number, List<AgentOutput> agents, AggregatorOutput aggregation) {

    public Round {
        agents = List.copyOf(agents);
    }
}
