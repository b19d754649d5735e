package dev.veracity.methods.compose;

import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.march.FailurePolicy;
import dev.veracity.methods.march.MarchDetail;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.MarchVerifier;
import dev.veracity.methods.march.Verification;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code BASE+march[+abstain|+regenerate]}: the base method answers, MARCH verifies the answer, the policy decides.
 *
 * <p>Options: the base method's own (unprefixed), MARCH's with a {@code march.} prefix ({@code march.samples=5};
 * typed claims are the default here, because a composed method's answers are entities and dates as often as
 * numbers). The verified text is "Question: q\nAnswer: a": a short answer alone ("1889") carries no claim a
 * Proposer could question; with the question it becomes one ("When was it completed? [Answer: 1889]").
 *
 * <p>The verdict: {@code verification} passed / failed / no claims / unparseable as signals ({@code consistent},
 * {@code ztr}, {@code claims}, {@code unparseable}). The policy is MARCH's own ({@code march.policy}; the name's suffix
 * sets its default): {@code report} keeps the answer; {@code abstain} replaces a failed or unparseable one with "I
 * don't know", which {@code truthfulness-answer} scores as an abstention; {@code regenerate} runs the whole base method
 * again, up to {@code march.r} more times, through a view of the model client that asks for other samples at
 * {@code march.temperature} ({@link dev.veracity.llm.client.LlmClient#resampled}: the base methods answer greedily,
 * so asking again as they do would give the same answer), and keeps the first answer that passes, else the last.
 */
public final class Composition implements QaMethod {

    /** The stage that verifies. */
    public static final String VERIFY = "march";
    /** The policy that abstains on a failed verification. */
    public static final String ABSTAIN = "abstain";
    /** The policy that answers again on a failed verification. */
    public static final String REGENERATE = "regenerate";
    static final String PREFIX = "march.";

    private final QaMethod base;
    private final FailurePolicy policy;
    private final MethodSpec spec;

    public Composition(QaMethod base, FailurePolicy policy) {
        if (base instanceof Composition || base instanceof MarchMethod) {
            throw new IllegalArgumentException("compose an answering method with march: '" + base.name() + "' already"
                    + " verifies or is composed");
        }
        this.base = base;
        this.policy = policy;
        List<OptionSpec> options = new ArrayList<>(base.spec().options());
        for (OptionSpec o : MarchSettings.OPTIONS) {
            String def = switch (o.name()) {
                case "claims" -> "typed";
                case "policy" -> policy.name().toLowerCase(java.util.Locale.ROOT);
                default -> o.defaultValue();
            };
            options.add(new OptionSpec(PREFIX + o.name(), o.type(), o.values(), o.aliases(), def,
                    "MARCH verification: " + o.description()));
        }
        String suffix = policy == FailurePolicy.REPORT ? "" : "+" + policy.name().toLowerCase(java.util.Locale.ROOT);
        this.spec = new MethodSpec(base.name() + "+" + VERIFY + suffix, base.spec().description()
                + " Then MARCH verifies the answer" + switch (policy) {
                    case REPORT -> " (verdict reported).";
                    case ABSTAIN -> "; abstains when verification fails.";
                    case REGENERATE -> "; answers again when verification fails.";
                }, base.spec().paper() + " + MARCH", "composition", options).withNeeds(needsOf(base));
    }

    /**
     * The base's needs with the documents MARCH checks against (even over a closed-book method) and MARCH's own model
     * role; not the pages: the base runs on the question's documents, which MARCH then checks its answer against.
     */
    private static Set<Capability> needsOf(QaMethod base) {
        Set<Capability> needs = new LinkedHashSet<>();
        needs.add(Capability.DOCUMENTS);
        needs.addAll(base.spec().needs());
        needs.remove(Capability.PAGES);
        needs.addAll(MarchMethod.SPEC.needs());
        return needs;
    }

    /** Parses {@code BASE+march[+abstain|+regenerate]}; null when the name has no '+'. */
    public static Composition parse(String name, java.util.function.Function<String, QaMethod> methods) {
        if (!name.contains("+")) {
            return null;
        }
        String[] parts = name.split("\\+", -1);
        boolean valid = (parts.length == 2 || parts.length == 3) && parts[1].equals(VERIFY)
                && (parts.length == 2 || parts[2].equals(ABSTAIN) || parts[2].equals(REGENERATE));
        if (!valid) {
            throw new IllegalArgumentException("unknown composition '" + name + "'; write METHOD+march,"
                    + " METHOD+march+abstain or METHOD+march+regenerate (e.g. madam-rag+march+abstain)");
        }
        return new Composition(methods.apply(parts[0]),
                parts.length == 2 ? FailurePolicy.REPORT : FailurePolicy.of(parts[2]));
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public MethodSpec spec() {
        return spec;
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
        MarchSettings settings = MarchSettings.fromOptions(marchOptions);
        MarchVerifier verifier = new MarchVerifier(settings);
        // the base sees its documents only if it reads them (a closed-book base stays closed book)
        QaItem forBase = base.needs(Capability.DOCUMENTS) ? item : item.withDocuments(List.of());
        int tries = settings.policy() == FailurePolicy.REGENERATE ? 1 + settings.regenerations() : 1;
        MethodAnswer answered = null;
        Verification v = null;
        List<String> failures = new ArrayList<>();
        int attempt = 0;
        for (; attempt < tries; attempt++) {
            int k = attempt;
            MethodContext run = (k == 0 ? ctx : ctx.withEveryClient(c -> c.resampled(k, settings.temperature())))
                    .withOptions(baseOptions);
            answered = base.answer(forBase, run);
            v = verifier.verify(ctx.llm(), ctx.calls(), attempt, "Question: " + item.question() + "\nAnswer: "
                    + answered.prediction(), item.documents());
            failures.addAll(answered.parseFailures());
            String at = tries > 1 ? " (attempt " + attempt + ")" : "";
            v.problems().forEach(p -> failures.add("march verification" + at + ": " + p));
            if (passed(v)) {
                break;
            }
        }
        boolean passed = passed(v);
        boolean abstains = settings.policy() == FailurePolicy.ABSTAIN && !passed;
        Map<String, Double> signals = new LinkedHashMap<>(answered.signals());
        signals.put("consistent", v.status() == Verification.Status.PASSED ? 1.0 : 0.0);
        signals.put("ztr", v.faults() > 0 || v.status() == Verification.Status.UNPARSEABLE ? -1.0 : 0.0);
        signals.put("claims", (double) v.claims().size());
        signals.put("unparseable", v.status() == Verification.Status.UNPARSEABLE ? 1.0 : 0.0);
        signals.put("abstained_by_policy", abstains ? 1.0 : 0.0);
        signals.put("attempts", (double) Math.min(attempt + 1, tries));
        // the base's details (the Court's candidates) and what MARCH found, for the report's question page
        dev.veracity.method.Details details = answered.details().with(MarchDetail.KEY,
                MarchDetail.of(v, Math.min(attempt + 1, tries)));
        if (abstains) {
            return new MethodAnswer(MarchMethod.ABSTENTION, List.of(), failures, signals,
                    answered.raw().isEmpty() ? answered.prediction() : answered.raw(), details);
        }
        return new MethodAnswer(answered.prediction(), answered.answers(), failures, signals, answered.raw(), details);
    }

    private static boolean passed(Verification v) {
        return v.consistent();
    }
}
