package dev.veracity.methods.madam;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.veracity.method.DetailKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What MADAM-RAG decided, as a run keeps it (the result line's {@code details.madam}): each round's answer of every
 * agent (one per document) and the aggregator's answer set, and at the end the answers the final aggregation kept and
 * the agents' last answers it dropped. The report's question page reads it.
 *
 * @param rounds       the rounds, in order
 * @param stoppedEarly whether the debate converged before its last round (the round before's aggregation is final)
 * @param kept         the final answer set, as the aggregator wrote it
 * @param dropped      the agents' last answers that no kept answer matches ({@link #matches}), each once, in agent
 *                     order
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"rounds", "stopped_early", "kept", "dropped"})
public record MadamDetail(List<RoundDetail> rounds, boolean stoppedEarly, List<String> kept, List<String> dropped) {

    /** The detail's key: {@code details.madam} in a result line. */
    public static final DetailKey<MadamDetail> KEY = DetailKey.of("madam", MadamDetail.class);

    public MadamDetail {
        rounds = rounds == null ? List.of() : List.copyOf(rounds);
        kept = kept == null ? List.of() : List.copyOf(kept);
        dropped = dropped == null ? List.of() : List.copyOf(dropped);
    }

    /**
     * One round.
     *
     * @param number     1..T
     * @param answers    each agent's answer, in document order ("" where its output had no "Answer:")
     * @param aggregated the aggregator's answer set after the round; null when the round converged (no aggregation)
     */
    @JsonPropertyOrder({"number", "answers", "aggregated"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RoundDetail(int number, List<String> answers, List<String> aggregated) {
        public RoundDetail {
            answers = answers == null ? List.of() : answers.stream().map(a -> Objects.requireNonNullElse(a, "")).toList();
            aggregated = aggregated == null ? null : List.copyOf(aggregated);
        }
    }

    /** The detail of a debate. */
    public static MadamDetail of(Transcript t) {
        List<RoundDetail> rounds = t.rounds().stream().map(r -> new RoundDetail(r.number(),
                r.agents().stream().map(AgentOutput::answer).toList(),
                r.aggregation() == null ? null : r.aggregation().answers())).toList();
        List<String> kept = t.result() == null ? List.of() : t.result().answers();
        List<String> dropped = new ArrayList<>();
        if (!t.rounds().isEmpty()) {
            for (AgentOutput o : t.rounds().getLast().agents()) {
                String a = o.answer().strip();
                if (!a.isEmpty() && kept.stream().noneMatch(k -> matches(k, a)) && dropped.stream().noneMatch(d -> matches(d, a))) {
                    dropped.add(a);
                }
            }
        }
        return new MadamDetail(rounds, t.stoppedEarly(), kept, dropped);
    }

    /**
     * Whether two answers are the same answer: one's normalised form contains the other's, as the authors' early stop
     * compares an agent's answers across rounds ({@link EarlyStop}).
     */
    static boolean matches(String a, String b) {
        String x = AgentOutputParser.normalized(a);
        String y = AgentOutputParser.normalized(b);
        return !x.isEmpty() && !y.isEmpty() && (x.contains(y) || y.contains(x));
    }
}
