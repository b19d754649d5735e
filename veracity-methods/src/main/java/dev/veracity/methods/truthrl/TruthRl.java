package dev.veracity.methods.truthrl;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.method.AgentPrompt;
import dev.veracity.method.RolePrompt;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.Abstention;
import dev.veracity.qa.BoxedAnswer;
import dev.veracity.qa.QaItem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TruthRL inference (section 4, Tables 9 and 10): one call with the paper's prompt, reasoning in {@code <think>},
 * the answer boxed. The prediction is the boxed answer (empty when there is no box: TruthRL's evaluation counts that
 * as a hallucination), so the dataset's metrics read it like any method's answer, and
 * {@code truthfulness-answer} gives accuracy, abstention and hallucination. The whole output is kept as {@code raw}.
 *
 * <p>Defaults are the authors' greedy evaluation (temperature 0, one sample, 2,048 new tokens). A question without
 * a query time (every dataset but CRAG) gets the {@code query-time} option's text, since the prompt has the field.
 */
public final class TruthRl implements QaMethod {

    private static final List<OptionSpec> OPTIONS = List.of(
            OptionSpec.decimal("temperature", 0.0, "sampling temperature (the authors' greedy evaluation: 0)"),
            OptionSpec.decimal("top-p", 0.9, "nucleus sampling when the temperature is above 0 (the authors' 0.9)"),
            OptionSpec.integer("max-tokens", 2048, "new tokens per answer (the authors' max_new_tokens)"),
            OptionSpec.integer("samples", 1, "majority@k (figure 2): k samples in one request, the most frequent"
                    + " normalised answer wins (abstentions vote together); needs a temperature above 0"),
            OptionSpec.choice("box", "last", "which \\boxed{} is the answer: the last outside reasoning, the first,"
                    + " or the authors' first non-greedy regex", "last", "first", "authors"),
            OptionSpec.string("query-time", "N/A", "the Query Time shown for questions that have none"));

    /** With the question's documents as references (Table 10). */
    public static final MethodSpec SPEC = new MethodSpec("truthrl",
            "Answer, abstain or call a false premise, reasoning in <think>, answer boxed; with references.", "TruthRL",
            "TruthRL Table 10 (inference prompt with retrieval)", OPTIONS);

    /** Closed book (Table 9): needs no documents. */
    public static final MethodSpec NO_RETRIEVAL_SPEC = new MethodSpec("truthrl-no-retrieval",
            "TruthRL's prompt without references: answer from the model's own knowledge, abstain or call a false premise.",
            "TruthRL", "TruthRL Table 9 (inference prompt without retrieval)", OPTIONS).withNeeds();

    private final boolean retrieval;

    private TruthRl(boolean retrieval) {
        this.retrieval = retrieval;
    }

    public static TruthRl withRetrieval() {
        return new TruthRl(true);
    }

    public static TruthRl noRetrieval() {
        return new TruthRl(false);
    }

    @Override
    public String name() {
        return spec().name();
    }

    @Override
    public MethodSpec spec() {
        return retrieval ? SPEC : NO_RETRIEVAL_SPEC;
    }

    /** The one call's prompt, for training data ({@code rl export --prompt truthrl}): the same text the call sends. */
    @Override
    public List<RolePrompt> rolePrompts() {
        return List.of(RolePrompt.of("answerer", retrieval ? "TruthRL Table 10: the question with its references"
                        : "TruthRL Table 9: the question alone, closed book",
                (item, c) -> List.of(new AgentPrompt("answerer", List.of(ChatMessage.user(TruthRlPrompts.prompt(item,
                        retrieval, queryTime(item, spec().resolve(c.options())))))))));
    }

    private static String queryTime(QaItem item, MethodOptions o) {
        return TruthRlPrompts.queryTime(item, o.string("query-time"));
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        MethodOptions o = spec().resolve(ctx.options());
        String queryTime = queryTime(item, o);
        double temperature = o.doubleValue("temperature");
        LlmRequest.Builder request = LlmRequest.user(TruthRlPrompts.prompt(item, retrieval, queryTime))
                .temperature(temperature).maxTokens(o.intValue("max-tokens"));
        if (temperature > 0) {
            request.topP(o.doubleValue("top-p"));
        }
        BoxedAnswer.Mode mode = BoxedAnswer.Mode.valueOf(o.string("box").toUpperCase(Locale.ROOT));
        int k = o.intValue("samples");
        if (k < 1) {
            throw new IllegalArgumentException("truthrl: samples must be >= 1, was " + k);
        }
        if (k > 1 && temperature <= 0) {
            throw new IllegalArgumentException("truthrl: majority@" + k + " needs sampling; pass --option temperature=..."
                    + " above 0 (the authors sample at 0.6 with top-p 0.9)");
        }
        if (k == 1) {
            Completion out = ctx.llm().call(ctx.role("answerer", 0), request.build()).first();
            return read(out.text(), mode);
        }
        List<String> outputs = ctx.llm().call(ctx.role("answerer", 0), request.n(k).build()).texts();
        return MajorityVote.of(outputs, mode);
    }

    /** The answer a TruthRL response gives, its kind as signals, the response as raw. */
    static MethodAnswer read(String output, BoxedAnswer.Mode mode) {
        Abstention.Reading r = Abstention.ofBoxed(output, mode);
        Map<String, Double> signals = new LinkedHashMap<>();
        signals.put("boxed", r.kind() == Abstention.Kind.NO_ANSWER ? 0.0 : 1.0);
        signals.put("abstained", r.kind() == Abstention.Kind.ABSTAIN ? 1.0 : 0.0);
        signals.put("invalid_premise", r.kind() == Abstention.Kind.INVALID_PREMISE ? 1.0 : 0.0);
        List<String> failures = r.kind() == Abstention.Kind.NO_ANSWER
                ? List.of("truthrl answerer: no \\boxed{} answer outside the reasoning (counted as a hallucination)")
                : List.of();
        List<String> answers = r.kind() == Abstention.Kind.ANSWER ? List.of(r.answer()) : List.of();
        return new MethodAnswer(r.answer(), answers, failures, signals, output).withDetail(TruthRlDetail.KEY,
                TruthRlDetail.of(r));
    }
}
