package dev.veracity.methods.court;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.baseline.ChainOfThought;
import dev.veracity.methods.baseline.ShortAnswer;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * {@code cot-judge} (Section 6.5, Table 5): Reasoning Court with chain-of-thought agents instead of ReAct agents. Two
 * agents (by default) answer closed book with the dataset's few-shot CoT prompt (Appendix B.2, the {@code cot}
 * baseline's request) concurrently; RC's judge (B.3) reads their reasoning ("Thought: ... Answer: ...") and answers,
 * with the same fallback. Agents differ as RC's do: per-agent {@code temperatures} and {@code seeds}.
 */
public final class CotJudge implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("cot-judge",
            "Chain-of-thought agents (closed book) and Reasoning Court's judge over their reasoning.", "Reasoning Court",
            "Section 6.5, Table 5", List.of(ReasoningCourt.AGENTS, ReactSettings.TEMPERATURE, ReactSettings.TEMPERATURES,
                    ReactSettings.SEEDS, OptionSpec.integer("max-tokens", 256, "output limit per agent"),
                    ReactSettings.ENDPOINT, ReasoningCourt.JUDGE_MAX_TOKENS))
            .withNeeds(); // closed book: the question alone

    @Override
    public String name() {
        return SPEC.name();
    }

    @Override
    public MethodSpec spec() {
        return SPEC;
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        MethodOptions o = SPEC.resolve(ctx.options());
        int n = ReactMethod.agents(o);
        List<Double> temperatures = o.numbers("temperatures");
        List<Long> seeds = o.longs("seeds");
        List<CourtJudge.Solution> solutions = dev.veracity.concurrent.Parallel.map(
                IntStream.rangeClosed(1, n).boxed().toList(), k -> {
                    LlmRequest request = ChainOfThought.request(item, ctx, o.intValue("max-tokens"), o.string("endpoint"))
                            .temperature(k <= temperatures.size() ? temperatures.get(k - 1) : o.doubleValue("temperature"))
                            .seed(k <= seeds.size() ? seeds.get(k - 1) : null).firstSampleIndex(k - 1).build();
                    Completion out = ctx.llm().call(ctx.role("agent-" + k, 1), request).first();
                    Optional<String> a = ShortAnswer.afterAnswerLine(out.text());
                    if (a.isEmpty()) {
                        ctx.llm().markUnparseable(request, out, "no 'Answer:' line");
                    }
                    return new CourtJudge.Solution("Thought: " + out.text().strip(), a.orElse(""));
                });
        List<String> failures = new ArrayList<>();
        List<Candidate> candidates = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            CourtJudge.Solution s = solutions.get(k - 1);
            if (s.answer().isEmpty()) {
                failures.add("agent-" + k + ": no 'Answer:' line in '" + Agents.abbreviate(s.trajectory()) + "'");
            }
            candidates.add(new Candidate("agent-" + k, s.answer(), 1, false, ""));
        }
        CourtJudge.Judgment j = CourtJudge.judge(item, solutions, Task.of(ctx.dataset()), o.intValue("judge-max-tokens"), ctx);
        Map<String, Double> signals = new LinkedHashMap<>();
        if (j.verdict() instanceof JudgeVerdict.Failed f) {
            failures.add("judge: " + f.failure().description() + " (" + f.failure().name() + ") in '"
                    + Agents.abbreviate(f.text()) + "'; fell back to the agents' majority answer");
        }
        signals.put("judge_parsed", j.parsed() ? 1.0 : 0.0);
        return Candidate.attach(new MethodAnswer(j.answer(), ReactMethod.answerList(j.answer()), failures, signals, j.raw()),
                candidates);
    }
}
