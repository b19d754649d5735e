package dev.veracity.methods.court;

import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code react} (Yao et al. 2023, Reasoning Court's baseline with its B.2 prompts): one agent; its Finish answer, or
 * "" when it ran out of steps (ReAct's {@code finish[]}). On FEVER it uses ReAct's own prompt by default, as Table 1
 * does (its 64.8 is Table 7's ReAct Prompt row); {@code react-sc}, an ablation of RC, keeps RC's enhanced one. {@code react-sc} (Section 6.2): three agents, the majority
 * of their answers (normalised, unanswered agents do not vote, ties to the first agent in order).
 */
public final class React extends ReactMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("react",
            "ReAct: one agent interleaving Thought, Action (Search, Lookup, Finish) and Observation, greedy.",
            "Reasoning Court (after Yao et al. 2023)", "Section 4.2, App. B.2", ReactSettings.BASELINE_OPTIONS);

    /** ReAct-SC: three agents, self-consistency over their answers. */
    public static final MethodSpec SELF_CONSISTENCY = new MethodSpec("react-sc",
            "ReAct-SC: three ReAct agents, the majority of their answers.", "Reasoning Court", "Section 6.2, Table 5",
            ReactSettings.with(List.of(OptionSpec.integer("agents", 3, "ReAct agents voting")), List.of()));

    private final boolean vote;

    public React() {
        this(false);
    }

    private React(boolean vote) {
        super(vote ? SELF_CONSISTENCY : SPEC);
        this.vote = vote;
    }

    /** {@code react-sc}. */
    public static React selfConsistency() {
        return new React(true);
    }

    @Override
    MethodAnswer answer(QaItem item, MethodContext ctx, MethodOptions o, ReactSettings s, QuestionPages pages) {
        List<Trajectory> ts = Agents.run(vote ? agents(o) : 1, s, item, pages.source(), ctx);
        String answer = vote ? Votes.of(ts.stream().map(Trajectory::answer).toList()).answer() : ts.getFirst().answer();
        return Candidate.attach(new MethodAnswer(answer, answerList(answer), new ArrayList<>(Agents.failures(ts)),
                Agents.signals(ts), ""), vote ? Agents.candidates(ts) : List.of());
    }
}
