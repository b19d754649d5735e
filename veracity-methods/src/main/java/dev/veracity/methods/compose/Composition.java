package dev.veracity.methods.compose;

import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.MarchVerifier;
import dev.veracity.methods.march.Verification;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code BASE+march[+abstain]}: the base method answers, MARCH verifies the answer, the policy decides.
 *
 * <p>Options: the base method's own (unprefixed), MARCH's with a {@code march.} prefix ({@code march.samples=5};
 * typed claims are the default here, because a composed method's answers are entities and dates as often as
 * numbers). The verified text is "Question: q\nAnswer: a": a short answer alone ("1889") carries no claim a
 * Proposer could question; with the question it becomes one ("When was it completed? [Answer: 1889]").
 *
 * <p>The verdict: {@code verification} passed / failed / no claims / unparseable as signals ({@code consistent},
 * {@code ztr}, {@code claims}, {@code unparseable}). With {@code +abstain} a failed or unparseable verification
 * replaces the answer with "I don't know", which {@code truthfulness-answer} scores as an abstention. Regeneration is
 * not offered: the methods answer greedily, so asking again gives the same answer.
 */
public final class Composition implements QaMethod {

    /** The stage that verifies. */
    public static final String VERIFY = "march";
    /** The policy that abstains on a failed verification. */
    public static final String ABSTAIN = "abstain";
    static final String PREFIX = "march.";

    private final QaMethod base;
    private final boolean abstain;
    private final MethodSpec spec;

    public Composition(QaMethod base, boolean abstain) {
        if (base instanceof Composition || base instanceof MarchMethod) {
            throw new IllegalArgumentException("compose an answering method with march: '" + base.name() + "' already"
                    + " verifies or is composed");
        }
        this.base = base;
        this.abstain = abstain;
        List<OptionSpec> options = new ArrayList<>(base.spec().options());
        for (OptionSpec o : MarchSettings.OPTIONS) {
            String def = o.name().equals("claims") ? "typed" : o.defaultValue();
            options.add(new OptionSpec(PREFIX + o.name(), o.type(), o.values(), o.aliases(), def,
                    "MARCH verification: " + o.description()));
        }
        String name = base.name() + "+" + VERIFY + (abstain ? "+" + ABSTAIN : "");
        this.spec = new MethodSpec(name, base.spec().description() + " Then MARCH verifies the answer"
                + (abstain ? "; abstains when verification fails." : " (verdict reported)."),
                base.spec().paper() + " + MARCH", "composition", options);
    }

    /** Parses {@code BASE+march[+abstain]}; null when the name has no '+'. */
    public static Composition parse(String name, java.util.function.Function<String, QaMethod> methods) {
        if (!name.contains("+")) {
            return null;
        }
        String[] parts = name.split("\\+", -1);
        boolean valid = (parts.length == 2 || parts.length == 3) && parts[1].equals(VERIFY)
                && (parts.length == 2 || parts[2].equals(ABSTAIN));
        if (!valid) {
            throw new IllegalArgumentException("unknown composition '" + name + "'; write METHOD+march or"
                    + " METHOD+march+abstain (e.g. madam-rag+march+abstain)");
        }
        return new Composition(methods.apply(parts[0]), parts.length == 3);
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public MethodSpec spec() {
        return spec;
    }

    /** MARCH checks against documents, so a composition needs them even over a closed-book method. */
    @Override
    public boolean needsDocuments() {
        return true;
    }

    @Override
    public boolean usesEmbedder() {
        return base.usesEmbedder();
    }

    @Override
    public boolean usesRetriever() {
        return base.usesRetriever();
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        MethodOptions all = spec.resolve(ctx.options());
        Map<String, String> baseOptions = new LinkedHashMap<>();
        Map<String, String> marchOptions = new LinkedHashMap<>();
        all.values().forEach((k, v) -> {
            if (k.startsWith(PREFIX)) {
                marchOptions.put(k.substring(PREFIX.length()), v);
            } else {
                baseOptions.put(k, v);
            }
        });
        // the base sees its documents only if it reads them (a closed-book base stays closed book)
        QaItem forBase = base.needsDocuments() ? item : item.withDocuments(List.of());
        MethodAnswer answered = base.answer(forBase, ctx.withOptions(baseOptions));
        MarchVerifier verifier = new MarchVerifier(MarchSettings.fromOptions(marchOptions));
        Verification v = verifier.verify(ctx.llm(), ctx.calls(), "Question: " + item.question() + "\nAnswer: "
                + answered.prediction(), item.documents());
        boolean passed = v.passed() && v.status() != Verification.Status.UNPARSEABLE;
        Map<String, Double> signals = new LinkedHashMap<>(answered.signals());
        signals.put("consistent", v.status() == Verification.Status.PASSED ? 1.0 : 0.0);
        signals.put("ztr", v.faults() > 0 || v.status() == Verification.Status.UNPARSEABLE ? -1.0 : 0.0);
        signals.put("claims", (double) v.claims().size());
        signals.put("unparseable", v.status() == Verification.Status.UNPARSEABLE ? 1.0 : 0.0);
        signals.put("abstained_by_policy", abstain && !passed ? 1.0 : 0.0);
        List<String> failures = new ArrayList<>(answered.parseFailures());
        v.problems().forEach(p -> failures.add("march verification: " + p));
        if (abstain && !passed) {
            return new MethodAnswer(MarchMethod.ABSTENTION, List.of(), failures, signals,
                    answered.raw().isEmpty() ? answered.prediction() : answered.raw());
        }
        return new MethodAnswer(answered.prediction(), answered.answers(), failures, signals, answered.raw());
    }
}
