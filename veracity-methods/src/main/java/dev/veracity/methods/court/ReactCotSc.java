package dev.veracity.methods.court;

import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.methods.baseline.ChainOfThoughtSelfConsistency;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hybrids of Section 4.3 (after Yao et al.), over the existing {@code cot-sc} baseline (21 samples at
 * temperature 0.7, majority):
 * <ul>
 *   <li>{@code react-cot-sc} (ReAct -> CoT-SC): ReAct first; when it returns no answer within its step limit, CoT-SC.
 *       An empty {@code Finish[]} counts as no answer.</li>
 *   <li>{@code cot-sc-react} (CoT-SC -> ReAct): CoT-SC first; when its majority answer has under 50% of the samples,
 *       ReAct. If ReAct then gives no answer, the CoT-SC majority stands (our reading: the paper does not say).</li>
 * </ul>
 * The CoT-SC part keeps its role ({@code reasoner}) and its settings ({@code sc-k}, {@code sc-temperature},
 * {@code sc-max-tokens}), recorded with the ReAct options. As Table 1's other ReAct baselines, the ReAct part uses
 * ReAct's own FEVER prompt by default ({@link ReactSettings#FEVER_PROMPT_REACT}).
 */
public final class ReactCotSc extends ReactMethod {

    static final List<OptionSpec> SC_OPTIONS = List.of(
            OptionSpec.integer("sc-k", 21, "CoT-SC samples"),
            OptionSpec.decimal("sc-temperature", 0.7, "CoT-SC sampling temperature"),
            OptionSpec.integer("sc-max-tokens", 256, "CoT-SC output limit per sample"));

    /** ReAct -> CoT-SC. */
    public static final MethodSpec REACT_FIRST = new MethodSpec("react-cot-sc",
            "ReAct, then CoT-SC when ReAct gives no answer within its steps.", "Reasoning Court (after Yao et al.)",
            "Section 4.3", ReactSettings.baselineWith(List.of(), SC_OPTIONS));

    /** CoT-SC -> ReAct. */
    public static final MethodSpec COT_SC_FIRST = new MethodSpec("cot-sc-react",
            "CoT-SC, then ReAct when the majority answer has under 50% of the samples.",
            "Reasoning Court (after Yao et al.)", "Section 4.3", ReactSettings.baselineWith(List.of(), SC_OPTIONS));

    private final boolean reactFirst;

    private ReactCotSc(boolean reactFirst) {
        super(reactFirst ? REACT_FIRST : COT_SC_FIRST);
        this.reactFirst = reactFirst;
    }

    public static ReactCotSc reactFirst() {
        return new ReactCotSc(true);
    }

    public static ReactCotSc cotScFirst() {
        return new ReactCotSc(false);
    }

    @Override
    MethodAnswer answer(QaItem item, MethodContext ctx, MethodOptions o, ReactSettings s, QuestionPages pages) {
        List<String> failures = new ArrayList<>();
        Map<String, Double> signals = new LinkedHashMap<>();
        if (reactFirst) {
            Trajectory t = Agents.run(1, s, item, pages.source(), ctx).getFirst();
            failures.addAll(Agents.failures(List.of(t)));
            signals.putAll(Agents.signals(List.of(t)));
            boolean fallBack = t.answer().isBlank();
            signals.put("fell_back", fallBack ? 1.0 : 0.0);
            if (!fallBack) {
                return new MethodAnswer(t.answer(), answerList(t.answer()), failures, signals);
            }
            MethodAnswer sc = cotSc(item, ctx, o);
            failures.addAll(sc.parseFailures());
            signals.putAll(sc.signals());
            return new MethodAnswer(sc.prediction(), sc.answers(), failures, signals);
        }
        MethodAnswer sc = cotSc(item, ctx, o);
        failures.addAll(sc.parseFailures());
        signals.putAll(sc.signals());
        double share = sc.signals().getOrDefault(ChainOfThoughtSelfConsistency.MAJORITY_SHARE, 0.0);
        boolean switchToReact = share < 0.5;
        signals.put("fell_back", switchToReact ? 1.0 : 0.0);
        if (!switchToReact) {
            return new MethodAnswer(sc.prediction(), sc.answers(), failures, signals);
        }
        Trajectory t = Agents.run(1, s, item, pages.source(), ctx).getFirst();
        failures.addAll(Agents.failures(List.of(t)));
        signals.putAll(Agents.signals(List.of(t)));
        String answer = t.answer().isBlank() ? sc.prediction() : t.answer();
        return new MethodAnswer(answer, answerList(answer), failures, signals);
    }

    /** The {@code cot-sc} baseline with this method's sc-* options. */
    private static MethodAnswer cotSc(QaItem item, MethodContext ctx, MethodOptions o) {
        Map<String, String> sc = Map.of("k", o.string("sc-k"), "temperature", o.string("sc-temperature"),
                "max-tokens", o.string("sc-max-tokens"), "endpoint", o.string("endpoint"));
        return new ChainOfThoughtSelfConsistency().answer(item, ctx.withOptions(sc));
    }
}
