package dev.veracity.methods.court;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
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
import java.util.Optional;

/**
 * The judge ablations of Table 5 over Reasoning Court's agents:
 * <ul>
 *   <li>{@code react-mad} (Section 6.3, Appendix B.4): after the agents, each argues for its answer from its own
 *       trajectory (the debaters run concurrently), then RC's judge decides seeing the trajectories and the arguments.
 *       One round of arguments: the paper describes a debate phase before the judgment and prints one debater prompt.</li>
 *   <li>{@code react-judge} (Section 6.4, Appendix B.5): an LLM-as-a-judge that sees the question and the agents'
 *       final answers only, never the trajectories, and names the best with {@code [[k]]}; no synthesis. An output
 *       without a verdict falls back to the agents' majority answer (agent 1's on a tie), recorded.</li>
 * </ul>
 */
public final class ReactJudges extends ReactMethod {

    static final OptionSpec DEBATE_MAX_TOKENS = OptionSpec.integer("debate-max-tokens", 512, "output limit of a debater");

    /** ReAct MAD. */
    public static final MethodSpec MAD = new MethodSpec("react-mad",
            "ReAct MAD: Reasoning Court's agents argue for their answers before its judge decides.", "Reasoning Court",
            "Section 6.3, App. B.4", ReactSettings.with(List.of(ReasoningCourt.AGENTS),
                    List.of(ReasoningCourt.JUDGE_MAX_TOKENS, DEBATE_MAX_TOKENS)));

    /** ReAct LLM-as-a-judge. */
    public static final MethodSpec LLM_JUDGE = new MethodSpec("react-judge",
            "ReAct LLM-as-a-judge: a judge picks among the agents' final answers only.", "Reasoning Court",
            "Section 6.4, App. B.5", ReactSettings.with(List.of(ReasoningCourt.AGENTS),
                    List.of(ReasoningCourt.JUDGE_MAX_TOKENS)));

    private final boolean debate;

    private ReactJudges(boolean debate) {
        super(debate ? MAD : LLM_JUDGE);
        this.debate = debate;
    }

    public static ReactJudges mad() {
        return new ReactJudges(true);
    }

    public static ReactJudges llmJudge() {
        return new ReactJudges(false);
    }

    @Override
    MethodAnswer answer(QaItem item, MethodContext ctx, MethodOptions o, ReactSettings s, QuestionPages pages) {
        List<Trajectory> ts = Agents.run(agents(o), s, item, pages.source(), ctx);
        List<String> failures = new ArrayList<>(Agents.failures(ts));
        Map<String, Double> signals = new LinkedHashMap<>(Agents.signals(ts));
        String answer;
        String raw;
        if (debate) {
            List<String> arguments = dev.veracity.concurrent.Parallel.map(ts, t -> argue(item, t, o, ctx));
            CourtJudge.Judgment j = CourtJudge.judge(item, ts.stream().map(CourtJudge.Solution::of).toList(), s.task(),
                    o.intValue("judge-max-tokens"), ctx, arguments);
            if (j.verdict() instanceof JudgeVerdict.Failed f) {
                failures.add("judge: " + f.failure().description() + " (" + f.failure().name() + ") in '"
                        + Agents.abbreviate(f.text()) + "'; fell back to the agents' majority answer");
            }
            signals.put("judge_parsed", j.parsed() ? 1.0 : 0.0);
            answer = j.answer();
            raw = j.raw();
        } else {
            StringBuilder answers = new StringBuilder();
            for (int i = 0; i < ts.size(); i++) {
                String a = ts.get(i).answer();
                answers.append(i > 0 ? "\n\n" : "").append("[The Start of Agent ").append(i + 1).append("'s Answer]\n")
                        .append(a.isBlank() ? "(no answer)" : a).append("\n[The End of Agent ").append(i + 1)
                        .append("'s Answer]");
            }
            LlmRequest request = LlmRequest.user(CourtPrompts.LLM_JUDGE.fill(Map.of("question", item.question(),
                    "answers", answers.toString()))).temperature(0.0).maxTokens(o.intValue("judge-max-tokens")).build();
            Completion out = ctx.llm().call(ctx.role("judge", 0), request).first();
            Optional<Integer> k = LabelledLines.lastVerdict(out.text(), ts.size());
            signals.put("judge_parsed", k.isPresent() ? 1.0 : 0.0);
            if (k.isPresent()) {
                answer = ts.get(k.get() - 1).answer();
            } else {
                ctx.llm().markUnparseable(request, out, "no [[k]] verdict");
                failures.add("judge: no [[k]] verdict in '" + Agents.abbreviate(out.text())
                        + "'; fell back to the agents' majority answer");
                answer = Votes.of(ts.stream().map(Trajectory::answer).toList()).answer();
            }
            raw = out.text();
        }
        return Candidate.attach(new MethodAnswer(answer, answerList(answer), failures, signals, raw), Agents.candidates(ts));
    }

    /** B.4: the agent argues, in the first person, for its answer from its own research. */
    private static String argue(QaItem item, Trajectory t, MethodOptions o, MethodContext ctx) {
        String prompt = CourtPrompts.DEBATER.fill(Map.of("question", item.question(),
                "answer", t.answer().isBlank() ? CourtJudge.NO_ANSWER : t.answer(), "trajectory", t.text()));
        LlmRequest request = LlmRequest.user(prompt).temperature(0.0).maxTokens(o.intValue("debate-max-tokens")).build();
        int number = Integer.parseInt(t.agent().substring(t.agent().indexOf('-') + 1));
        return ctx.llm().call(ctx.role("debater-" + number, 0), request).first().text();
    }
}
