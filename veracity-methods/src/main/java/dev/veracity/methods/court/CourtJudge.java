package dev.veracity.methods.court;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodContext;
import dev.veracity.qa.QaItem;
import java.util.List;
import java.util.Map;

/**
 * Reasoning Court's judge (Section 3.2, Appendix B.3): given the question, every agent's final answer and full
 * research trajectory, it selects the best-supported answer or synthesises one when all fail, and writes
 * {@code Complete[answer]}. Greedy, as every method but CoT-SC in the paper.
 *
 * <p>Layout (the paper does not print it): after the dataset's instruction, the question, then one block per agent,
 * "Agent i:" with its trajectory in ReAct's Thought / Action / Observation lines and "Final answer: ...", an
 * unfinished agent's answer shown as {@link #NO_ANSWER}. With N agents other than two (Figure 2) "two solutions" in
 * the instruction reads "N solutions".
 *
 * <p>Fallback, when the output holds no usable {@code Complete[...]} ({@link JudgeOutputParser}): the agents'
 * majority answer (the first agent's on a tie, so agent 1's when two agents disagree), "" when no agent answered. It
 * is recorded as a parse failure and as the signal {@code judge_parsed = 0}; the paper does not say what it did.
 */
final class CourtJudge {

    static final String NO_ANSWER = "(none: the agent did not finish within its steps)";

    /**
     * The judgment.
     *
     * @param answer  the final answer (the judge's, or the fallback's)
     * @param verdict what the parser read
     * @param raw     the judge's output
     */
    record Judgment(String answer, JudgeVerdict verdict, String raw) {

        boolean parsed() {
            return verdict instanceof JudgeVerdict.Complete;
        }
    }

    private CourtJudge() {
    }

    /**
     * What the judge sees of one agent: its trajectory as text (ReAct's Thought / Action / Observation lines, or a CoT
     * agent's reasoning) and its final answer ("" for none).
     */
    record Solution(String trajectory, String answer) {

        static Solution of(Trajectory t) {
            return new Solution(t.text(), t.answer());
        }
    }

    static Judgment judge(QaItem item, List<Solution> agents, Task task, int maxTokens, MethodContext ctx) {
        return judge(item, agents, task, maxTokens, ctx, null);
    }

    /** The judgment; {@code arguments} (ReAct MAD's debaters' arguments, by agent) are shown when not null. */
    static Judgment judge(QaItem item, List<Solution> agents, Task task, int maxTokens, MethodContext ctx,
                          List<String> arguments) {
        String prompt = prompt(item, agents, task, arguments);
        LlmRequest request = LlmRequest.user(prompt).temperature(0.0).maxTokens(maxTokens).build();
        Completion out = ctx.llm().call(ctx.role("judge", 0), request).first();
        JudgeVerdict v = JudgeOutputParser.parse(out.text());
        if (v instanceof JudgeVerdict.Complete c) {
            return new Judgment(c.answer(), v, out.text());
        }
        ctx.llm().markUnparseable(request, out, ((JudgeVerdict.Failed) v).failure().description());
        return new Judgment(Votes.of(agents.stream().map(Solution::answer).toList()).answer(), v, out.text());
    }

    /** The B.3 prompt over these agents; {@code arguments} (ReAct MAD's debaters, by agent) are added when not null. */
    static String prompt(QaItem item, List<Solution> agents, Task task, List<String> arguments) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < agents.size(); i++) {
            Solution t = agents.get(i);
            if (i > 0) {
                sb.append("\n\n");
            }
            sb.append("Agent ").append(i + 1).append(":\n").append(t.trajectory()).append("\nFinal answer: ")
                    .append(t.answer().isBlank() ? NO_ANSWER : t.answer());
            if (arguments != null) {
                sb.append("\nAgent ").append(i + 1).append("'s argument: ").append(arguments.get(i).strip());
            }
        }
        String text = task.judgePrompt.fill(Map.of("question", item.question(), "solutions", sb.toString()));
        return agents.size() == 2 ? text : text.replaceFirst("You are given two solutions",
                "You are given " + agents.size() + " solutions");
    }
}
