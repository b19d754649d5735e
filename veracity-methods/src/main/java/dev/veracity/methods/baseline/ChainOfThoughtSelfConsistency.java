package dev.veracity.methods.baseline;

import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.method.RolePrompt;
import dev.veracity.qa.AnswerNormalizer;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CoT with self-consistency: k CoT samples, the majority answer after SQuAD normalisation. Reasoning Court uses 21
 * samples at temperature 0.7 (Section 4.1, after ReAct); options {@code k} and {@code temperature} change them.
 * The k samples are one request with n = k (split into concurrent calls where the backend cannot). A tie goes to
 * the answer reached first in sample order; samples without an answer are recorded as parse failures and do not
 * vote.
 */
public final class ChainOfThoughtSelfConsistency implements QaMethod {

    /** The signal with the share of the samples that voted for the majority answer. */
    public static final String MAJORITY_SHARE = "majority_share";

    /** The declaration {@code eval} and {@code methods} read. */
    public static final MethodSpec SPEC = new MethodSpec("cot-sc",
            "k chain-of-thought samples, majority over normalised answers.", "Reasoning Court",
            "Section 4.1, App. B.2", List.of(
                    OptionSpec.integer("k", 21, "samples"),
                    OptionSpec.decimal("temperature", 0.7, "sampling temperature"),
                    OptionSpec.integer("max-tokens", 256, "output limit per sample"), ChainOfThought.ENDPOINT))
            .withNeeds(); // closed book: the question alone

    @Override
    public String name() {
        return SPEC.name();
    }

    @Override
    public MethodSpec spec() {
        return SPEC;
    }

    /** Its samples share cot's prompt. */
    @Override
    public List<RolePrompt> rolePrompts() {
        return List.of(ChainOfThought.REASONER);
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        MethodOptions o = SPEC.resolve(ctx.options());
        int k = o.intValue("k");
        double temperature = o.doubleValue("temperature");
        LlmRequest request = ChainOfThought.request(item, ctx.dataset(), o.intValue("max-tokens"), o.string("endpoint"))
                .temperature(temperature).n(k).build();
        List<Completion> samples = ctx.llm().call(ctx.role("reasoner", 0), request).completions();

        Map<String, Integer> votes = new LinkedHashMap<>();
        Map<String, String> firstForm = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        for (Completion c : samples) {
            Optional<String> a = ShortAnswer.afterAnswerLine(c.text());
            if (a.isEmpty()) {
                failures.add("sample " + c.sampleIndex() + ": no 'Answer:' line");
                ctx.llm().markUnparseable(request, c, "no 'Answer:' line");
                continue;
            }
            String key = AnswerNormalizer.squad(a.get());
            votes.merge(key, 1, Integer::sum);
            firstForm.putIfAbsent(key, a.get());
        }
        String best = null;
        int bestVotes = 0;
        for (Map.Entry<String, Integer> e : votes.entrySet()) {
            if (e.getValue() > bestVotes) {
                best = e.getKey();
                bestVotes = e.getValue();
            }
        }
        // the share of the k samples behind the majority: CoT-SC -> ReAct switches below 50% (Section 4.3)
        Map<String, Double> signals = Map.of(MAJORITY_SHARE, k == 0 ? 0.0 : (double) bestVotes / k);
        if (best == null) {
            return new MethodAnswer("", List.of(), failures, signals);
        }
        String prediction = firstForm.get(best);
        return new MethodAnswer(prediction, List.of(prediction), failures, signals);
    }
}
