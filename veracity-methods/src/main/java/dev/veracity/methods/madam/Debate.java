package dev.veracity.methods.madam;

import dev.veracity.concurrent.Parallel;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The multi-round debate (Section 4). Round 1: every agent answers from its document alone. Rounds 2..T: every
 * agent also sees the history ({@link MadamSettings#history()}: by default the other agents' previous responses,
 * as the authors' code). The agents of a round run concurrently ({@link Parallel#map}); the authors' run one after
 * another. After each round the aggregator reconciles them, unless {@link EarlyStop} says the agents kept their
 * answers, in which case the previous aggregation is final (authors' code).
 */
public final class Debate {

    private final MadamSettings settings;

    public Debate(MadamSettings settings) {
        this.settings = settings;
    }

    public Transcript run(QaItem item, MethodContext ctx) {
        List<Document> docs = item.documents();
        List<Agent> agents = Agent.forDocuments(docs);
        List<String> failures = new ArrayList<>();
        List<Round> rounds = new ArrayList<>();
        if (agents.isEmpty()) {
            return new Transcript(rounds, new AggregatorOutput(List.of("unknown"), "no documents", "", true), false,
                    failures);
        }
        List<AgentOutput> previous = null;
        AggregatorOutput aggregation = null;
        for (int round = 1; round <= settings.rounds(); round++) {
            final int r = round;
            final List<AgentOutput> prev = previous;
            final AggregatorOutput prevAgg = aggregation;
            List<AgentOutput> outputs = Parallel.map(agents, a -> a.respond(item.question(),
                    prev == null ? null : history(a.index(), prev, prevAgg), r, settings, ctx));
            for (Agent a : agents) {
                AgentOutput o = outputs.get(a.index() - 1);
                if (!o.parsed()) {
                    failures.add("round " + r + " agent " + a.index() + ": no 'Answer:' in '" + abbreviate(o.raw()) + "'");
                }
            }
            if (settings.earlyStop() && EarlyStop.converged(prev, outputs)) {
                rounds.add(new Round(r, outputs, null));
                return new Transcript(rounds, aggregation, true, failures);
            }
            if (settings.aggregator()) {
                aggregation = Aggregator.aggregate(item.question(), item.id(), outputs, r, settings, ctx,
                        docs.stream().map(Document::titled).toList());
                if (!aggregation.parsed()) {
                    failures.add("round " + r + " aggregator: no 'All Correct Answers' in '" + abbreviate(aggregation.raw()) + "'");
                }
            } else {
                aggregation = Aggregator.join(outputs);
            }
            rounds.add(new Round(r, outputs, aggregation));
            previous = outputs;
        }
        return new Transcript(rounds, aggregation, false, failures);
    }

    /** What agent {@code self} sees in the next round: the others' responses and/or the last aggregation. */
    String history(int self, List<AgentOutput> previous, AggregatorOutput aggregation) {
        StringBuilder sb = new StringBuilder();
        if (settings.agentsSeeAgents()) {
            IntStream.range(0, previous.size()).filter(i -> i + 1 != self).forEach(i -> {
                if (!sb.isEmpty()) {
                    sb.append("\n\n");
                }
                sb.append("Agent ").append(i + 1).append(": ").append(previous.get(i).shown());
            });
        }
        if (settings.agentsSeeAggregation() && aggregation != null) {
            if (!sb.isEmpty()) {
                sb.append("\n\n");
            }
            sb.append("Aggregator: ").append(aggregation.raw().isBlank() ? aggregation.prediction() : aggregation.raw().strip());
        }
        return sb.toString();
    }

    static String abbreviate(String s) {
        String t = s.strip().replace('\n', ' ');
        return t.length() <= 200 ? t : t.substring(0, 200) + "...";
    }
}
