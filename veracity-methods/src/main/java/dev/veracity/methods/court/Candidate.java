package dev.veracity.methods.court;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.veracity.method.DetailKey;
import dev.veracity.method.MethodAnswer;
import java.util.List;
import java.util.Objects;

/**
 * One agent's answer among several that a method chose among (Reasoning Court's agents before its judge, the
 * debaters of MAD, the CoT agents of cot-judge), attached to the answer under {@link #KEY} in agent order. Runs write
 * them into the result line's {@code candidates}; the report's judge scenarios (Reasoning Court's Table 3) and the
 * recipes' subsets read them from there.
 *
 * @param agent  the agent's role in the traces ({@code agent-1}, ...)
 * @param answer its answer ("" when it gave none)
 * @param steps  the steps it took (model turns; 0 when the agent does not step)
 * @param forced whether it was stopped at its step limit instead of finishing by itself
 * @param note   what else a reader of the run should know ("" when nothing, and then not written), e.g. a loop on one
 *               action
 */
@JsonPropertyOrder({"agent", "answer", "steps", "forced", "note"})
public record Candidate(String agent, String answer, int steps, boolean forced,
                        @JsonInclude(JsonInclude.Include.NON_EMPTY) String note) {

    /** The candidates of an answer: the result line's {@code candidates}. */
    public static final DetailKey<List<Candidate>> KEY = DetailKey.listOf("candidates", Candidate.class);

    public Candidate {
        agent = Objects.requireNonNullElse(agent, "");
        answer = Objects.requireNonNullElse(answer, "");
        note = Objects.requireNonNullElse(note, "");
    }

    /** The answer's candidates, in agent order; empty when it chose among none. */
    public static List<Candidate> of(MethodAnswer answer) {
        return answer.detail(KEY).orElse(List.of());
    }

    /** The answer with its candidates attached (none attached when the list is empty: the line then has no field). */
    static MethodAnswer attach(MethodAnswer answer, List<Candidate> candidates) {
        return candidates.isEmpty() ? answer : answer.withDetail(KEY, List.copyOf(candidates));
    }
}
