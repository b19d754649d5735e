package dev.veracity.methods.court;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.baseline.ShortAnswer;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code mad} (Section 4.2, Table 1: "two agents debate iteratively without retrieval, and a judge oversees the process
 * to select the final answer", after Liang et al. 2024). Closed book. Each round the affirmative side answers (round
 * 1: the question; later: the negative side's last argument), then the negative side answers the affirmative's
 * (round 1: disagreeing, as Liang et al.'s negative side is told to), then the moderator says whether one side is
 * clearly preferred and gives the answer; a preference ends the debate. After {@code rounds} rounds (Liang et al.'s
 * 3) without one, a judge reads both sides' last arguments and answers. The paper prints no MAD prompt: ours
 * ({@code mad-*.txt}) follow Liang et al.'s, with the moderator's JSON as labelled lines and their two-step final
 * judge as one call; each debater sees the other's last argument rather than the whole conversation.
 */
public final class MultiAgentDebate implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("mad",
            "Multi-agent debate without retrieval: two debaters, a moderator each round, a judge if undecided.",
            "Reasoning Court (after Liang et al. 2024)", "Section 4.2", List.of(
                    OptionSpec.integer("rounds", 3, "most debate rounds (Liang et al.'s 3)"),
                    OptionSpec.decimal("temperature", 0.0, "sampling temperature (the paper's: 0)"),
                    OptionSpec.integer("max-tokens", 512, "output limit per call")))
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
        Task task = Task.of(ctx.dataset());
        List<String> failures = new ArrayList<>();
        Map<String, Double> signals = new LinkedHashMap<>();
        String affirmative = "";
        String negative = "";
        int rounds = Math.max(1, o.intValue("rounds"));
        for (int r = 1; r <= rounds; r++) {
            String affTurn = r == 1 ? "Give your answer to the question and your reasons."
                    : "The negative side argues:\n" + negative.strip()
                    + "\n\nDo you agree with this perspective? Provide your reasons and your answer.";
            affirmative = call(ctx, o, "affirmative", r, CourtPrompts.MAD_DEBATER.fill(Map.of("question", item.question(),
                    "turn", affTurn, "answer_rule", task.answerRule)));
            String negTurn = "The affirmative side argues:\n" + affirmative.strip() + "\n\n" + (r == 1
                    ? "You disagree with the affirmative side's answer. Provide your answer and reasons."
                    : "Do you agree with this perspective? Provide your reasons and your answer.");
            negative = call(ctx, o, "negative", r, CourtPrompts.MAD_DEBATER.fill(Map.of("question", item.question(),
                    "turn", negTurn, "answer_rule", task.answerRule)));
            String moderator = call(ctx, o, "moderator", r, CourtPrompts.MAD_MODERATOR.fill(Map.of("question",
                    item.question(), "round", Integer.toString(r), "affirmative", affirmative.strip(), "negative",
                    negative.strip(), "answer_rule", task.answerRule)));
            Optional<String> preference = LabelledLines.last(moderator, "Preference");
            if (preference.isEmpty() || !(preference.get().startsWith("yes") || preference.get().startsWith("no"))) {
                failures.add("moderator round " + r + ": no 'Preference: Yes|No' line in '" + Agents.abbreviate(moderator) + "'");
                continue;
            }
            Optional<String> answer = ShortAnswer.afterAnswerLine(moderator);
            if (preference.get().startsWith("yes") && answer.isPresent()) {
                signals.put("rounds", (double) r);
                signals.put("judge_called", 0.0);
                return done(answer.get(), failures, signals, moderator, affirmative, negative);
            }
        }
        signals.put("rounds", (double) rounds);
        signals.put("judge_called", 1.0);
        String judged = call(ctx, o, "judge", 0, CourtPrompts.MAD_JUDGE.fill(Map.of("question", item.question(),
                "affirmative", affirmative.strip(), "negative", negative.strip(), "answer_rule", task.answerRule)));
        Optional<String> answer = ShortAnswer.afterAnswerLine(judged);
        if (answer.isEmpty()) {
            failures.add("judge: no 'Answer:' line in '" + Agents.abbreviate(judged) + "'; fell back to the affirmative side's answer");
        }
        String fallback = ShortAnswer.afterAnswerLine(affirmative).orElse("");
        return done(answer.orElse(fallback), failures, signals, judged, affirmative, negative);
    }

    private static MethodAnswer done(String answer, List<String> failures, Map<String, Double> signals, String raw,
                                     String affirmative, String negative) {
        List<Candidate> candidates = List.of(
                new Candidate("affirmative", ShortAnswer.afterAnswerLine(affirmative).orElse(""), 0, false, ""),
                new Candidate("negative", ShortAnswer.afterAnswerLine(negative).orElse(""), 0, false, ""));
        return Candidate.attach(new MethodAnswer(answer, ReactMethod.answerList(answer), failures, signals, raw), candidates);
    }

    private static String call(MethodContext ctx, MethodOptions o, String role, int round, String prompt) {
        LlmRequest request = LlmRequest.user(prompt).temperature(o.doubleValue("temperature"))
                .maxTokens(o.intValue("max-tokens")).build();
        Completion out = ctx.llm().call(ctx.role(role, round), request).first();
        return out.text();
    }
}
