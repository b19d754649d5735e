package dev.veracity.eval.judge;

import dev.veracity.method.PromptTemplate;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.CallContext;
import java.util.Map;

/**
 * C-3PO's answer validator: the "Prompt of Evaluation" of C-3PO, Appendix D.2 "Evaluation", verbatim in
 * {@code c3po_evaluation.txt}, which shows the model <em>all</em> gold answers at once (as a JSON list) and asks
 * for "True" or "False". One prompt per input, so no per-gold loop. Outputs are read by
 * {@link BinaryVerdictParser#TRUE_FALSE} (labelled, then leading, then first standalone True/False; "not true"
 * reads as False). Default sampling: one greedy sample, as C-3PO reports one judge call.
 */
public final class TrueFalseJudge extends LlmJudge {

    private static final PromptTemplate PROMPT = PromptTemplate.resource(TrueFalseJudge.class, "c3po_evaluation.txt");
    private static final ObjectMapper JSON = new ObjectMapper();

    public TrueFalseJudge(LlmClient client) {
        this(client, JudgeOptions.defaults());
    }

    public TrueFalseJudge(LlmClient client, JudgeOptions options) {
        super(client, options);
    }

    public String prompt(JudgeInput in) {
        String golds;
        try {
            golds = JSON.writeValueAsString(in.goldAnswers());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return PROMPT.fill(Map.of("question", in.question(), "true_answer", golds, "long_answer", in.prediction()));
    }

    @Override
    public Parsed parse(String output) {
        return BinaryVerdictParser.TRUE_FALSE.parse(output);
    }

    @Override
    protected Verdict decide(JudgeInput in, CallContext ctx) {
        return Verdict.majority(sample(prompt(in), null, ctx));
    }

    @Override
    public String name() {
        return "c3po-true-false";
    }
}
