package dev.veracity.eval.judge;

import dev.veracity.method.PromptTemplate;
import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.CallContext;
import java.util.List;
import java.util.Map;

/**
 * A generic "are these two answers equivalent for this question" judge. The prompt ({@code equivalence.txt}) is
 * <b>ours</b>, not a paper's. It compares the prediction with each gold answer in turn
 * ({@link LlmJudge#perGold}: correct when any gold is equivalent), includes the query time when the input has
 * one, and reads Yes/No with {@link BinaryVerdictParser#YES_NO} (labelled or leading word only: "no" is too
 * common in prose to be taken from anywhere in the text).
 */
public final class EquivalenceJudge extends LlmJudge {

    private static final PromptTemplate PROMPT = PromptTemplate.resource(EquivalenceJudge.class, "equivalence.txt");

    public EquivalenceJudge(LlmClient client) {
        this(client, JudgeOptions.defaults());
    }

    public EquivalenceJudge(LlmClient client, JudgeOptions options) {
        super(client, options);
    }

    public String prompt(JudgeInput in, String gold) {
        String time = in.queryTime().map(t -> "Query Time: " + t + "\n").orElse("");
        return PROMPT.fill(Map.of("question", in.question(), "query_time_line", time, "reference", gold,
                "candidate", in.prediction()));
    }

    @Override
    public Parsed parse(String output) {
        return BinaryVerdictParser.YES_NO.parse(output);
    }

    @Override
    protected Verdict decide(JudgeInput in, CallContext ctx) {
        return perGold(in, ctx, gold -> List.of(ChatMessage.user(prompt(in, gold))));
    }

    @Override
    public String name() {
        return "equivalence";
    }
}
