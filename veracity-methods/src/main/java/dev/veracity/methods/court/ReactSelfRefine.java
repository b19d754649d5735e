package dev.veracity.methods.court;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.methods.baseline.ShortAnswer;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code react-self-refine} (Section 4.3: "the model first generates an answer using ReAct, then iteratively refines
 * it with self-feedback", after Madaan et al. 2023). The paper prints no prompt: ours ({@code refine-feedback.txt},
 * {@code refine.txt}) give the feedback step the question, the answer and the trajectory and ask for a last
 * {@code Verdict: correct|refine} line; the refinement step adds the feedback and asks for an {@code Answer:} line.
 * It stops when the feedback says correct, after {@code iterations} refinements (Self-Refine's default 4), or when a
 * feedback or refinement cannot be read (recorded; the last readable answer stands). Greedy, as the paper's other
 * methods. As Table 1's other ReAct baselines, ReAct's own FEVER prompt by default
 * ({@link ReactSettings#FEVER_PROMPT_REACT}).
 */
public final class ReactSelfRefine extends ReactMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("react-self-refine",
            "ReAct, then self-feedback and refinement until the feedback finds the answer correct.",
            "Reasoning Court (after Madaan et al. 2023)", "Section 4.3", ReactSettings.baselineWith(List.of(), List.of(
                    OptionSpec.integer("iterations", 4, "most refinements (Self-Refine's default: 4)"),
                    OptionSpec.integer("refine-max-tokens", 512, "output limit of a feedback or refinement"))));

    public ReactSelfRefine() {
        super(SPEC);
    }

    @Override
    MethodAnswer answer(QaItem item, MethodContext ctx, MethodOptions o, ReactSettings s, QuestionPages pages) {
        Trajectory t = Agents.run(1, s, item, pages.source(), ctx).getFirst();
        List<String> failures = new ArrayList<>(Agents.failures(List.of(t)));
        Map<String, Double> signals = new LinkedHashMap<>(Agents.signals(List.of(t)));
        String answer = t.answer();
        int maxTokens = o.intValue("refine-max-tokens");
        int refinements = 0;
        for (int i = 1; i <= o.intValue("iterations"); i++) {
            Map<String, String> values = Map.of("question", item.question(), "answer", answer.isBlank() ? "(none)" : answer,
                    "trajectory", t.text(), "answer_rule", s.task().answerRule);
            LlmRequest ask = LlmRequest.user(CourtPrompts.REFINE_FEEDBACK.fill(values)).temperature(0.0)
                    .maxTokens(maxTokens).build();
            Completion feedback = ctx.llm().call(ctx.role("feedback", i), ask).first();
            Optional<String> verdict = LabelledLines.last(feedback.text(), "Verdict");
            if (verdict.isEmpty() || !(verdict.get().startsWith("correct") || verdict.get().startsWith("refine"))) {
                ctx.llm().markUnparseable(ask, feedback, "no 'Verdict: correct|refine' line");
                failures.add("feedback " + i + ": no 'Verdict: correct|refine' line in '" + Agents.abbreviate(feedback.text()) + "'");
                break;
            }
            if (verdict.get().startsWith("correct")) {
                break;
            }
            Map<String, String> withFeedback = new LinkedHashMap<>(values);
            withFeedback.put("feedback", feedback.text().strip());
            LlmRequest refine = LlmRequest.user(CourtPrompts.REFINE.fill(withFeedback)).temperature(0.0)
                    .maxTokens(maxTokens).build();
            Completion out = ctx.llm().call(ctx.role("refiner", i), refine).first();
            Optional<String> improved = ShortAnswer.afterAnswerLine(out.text());
            if (improved.isEmpty()) {
                ctx.llm().markUnparseable(refine, out, "no 'Answer:' line");
                failures.add("refinement " + i + ": no 'Answer:' line in '" + Agents.abbreviate(out.text()) + "'");
                break;
            }
            answer = improved.get();
            refinements++;
        }
        signals.put("refinements", (double) refinements);
        return new MethodAnswer(answer, answerList(answer), failures, signals);
    }
}
