package dev.veracity.methods.court;

import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code court}: Reasoning Court (Section 3). N ReAct agents (two in the paper; {@code agents=N} for Figure 2) research
 * the question concurrently; the judge reads the question, their final answers and full trajectories and writes
 * {@code Complete[answer]}, selecting the best-supported answer or synthesising one ({@link CourtJudge}, with its
 * documented fallback when the output has no {@code Complete[...]}). {@code court-no-judge} (Table 5, "RC without
 * judge") runs the same agents and takes the first answer in agent order: the paper's figures for it equal ReAct's,
 * i.e. one agent's answer; we take the next agent's when the first gave none.
 */
public final class ReasoningCourt extends ReactMethod {

    static final OptionSpec AGENTS = OptionSpec.integer("agents", 2, "ReAct agents (the paper: 2; Figure 2 varies it)");
    static final OptionSpec JUDGE_MAX_TOKENS = OptionSpec.integer("judge-max-tokens", 512, "output limit of the judge");

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("court",
            "Reasoning Court: ReAct agents research concurrently, a judge selects or synthesises from their trajectories.",
            "Reasoning Court", "Section 3, App. B.2-B.3", ReactSettings.with(List.of(AGENTS), List.of(JUDGE_MAX_TOKENS)));

    /** RC without judge (Table 5). */
    public static final MethodSpec NO_JUDGE = new MethodSpec("court-no-judge",
            "Reasoning Court's agents without the judge: the first agent's answer (the next one's if it gave none).",
            "Reasoning Court", "Section 6.1, Table 5", ReactSettings.with(List.of(AGENTS), List.of()));

    private final boolean judge;

    /** Reasoning Court with its judge. */
    public ReasoningCourt() {
        this(true);
    }

    private ReasoningCourt(boolean judge) {
        super(judge ? SPEC : NO_JUDGE);
        this.judge = judge;
    }

    /** {@code court-no-judge}. */
    public static ReasoningCourt withoutJudge() {
        return new ReasoningCourt(false);
    }

    @Override
    MethodAnswer answer(QaItem item, MethodContext ctx, MethodOptions o, ReactSettings s, QuestionPages pages) {
        List<Trajectory> ts = Agents.run(agents(o), s, item, pages.source(), ctx);
        List<String> failures = new ArrayList<>(Agents.failures(ts));
        Map<String, Double> signals = new LinkedHashMap<>(Agents.signals(ts));
        String answer;
        String raw = "";
        CourtDetail.JudgeDetail choice = null;
        if (judge) {
            CourtJudge.Judgment j = CourtJudge.judge(item, ts.stream().map(CourtJudge.Solution::of).toList(), s.task(),
                    o.intValue("judge-max-tokens"), ctx);
            if (j.verdict() instanceof JudgeVerdict.Failed f) {
                failures.add("judge: " + f.failure().description() + " (" + f.failure().name() + ") in '"
                        + Agents.abbreviate(f.text()) + "'; fell back to the agents' majority answer");
            }
            signals.put("judge_parsed", j.parsed() ? 1.0 : 0.0);
            answer = j.answer();
            raw = j.raw();
            choice = CourtDetail.judge(ts, answer, j.parsed());
        } else {
            answer = ts.stream().map(Trajectory::answer).filter(a -> !a.isBlank()).findFirst().orElse("");
        }
        return Candidate.attach(new MethodAnswer(answer, answerList(answer), failures, signals, raw), Agents.candidates(ts))
                .withDetail(CourtDetail.KEY, new CourtDetail(CourtDetail.of(ts), choice));
    }
}
