package dev.veracity.methods.court;

import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;
import java.util.List;

/**
 * What the ReAct-based methods share: they act in a Wikipedia of pages (the run's page store, or the question's own
 * paragraphs: {@link QuestionPages}), their options include {@link ReactSettings#OPTIONS}, and the answer is built
 * from the resolved options, the settings and the question's pages.
 */
abstract class ReactMethod implements QaMethod {

    private final MethodSpec spec;

    /** Every ReAct method's agents act in the run's pages when it has some, else in the question's paragraphs. */
    ReactMethod(MethodSpec spec) {
        this.spec = spec.withNeeds(Capability.DOCUMENTS, Capability.PAGES);
    }

    @Override
    public final String name() {
        return spec.name();
    }

    @Override
    public final MethodSpec spec() {
        return spec;
    }

    @Override
    public final MethodAnswer answer(QaItem item, MethodContext ctx) {
        MethodOptions o = spec.resolve(ctx.options());
        ReactSettings s = ReactSettings.from(o, ctx);
        try (QuestionPages pages = QuestionPages.of(item, s.task(), ctx)) {
            return answer(item, ctx, o, s, pages);
        }
    }

    abstract MethodAnswer answer(QaItem item, MethodContext ctx, MethodOptions o, ReactSettings s, QuestionPages pages);

    /** The option {@code agents}, checked. */
    static int agents(MethodOptions o) {
        int n = o.intValue("agents");
        if (n < 1) {
            throw new IllegalArgumentException("option agents must be >= 1, was " + n);
        }
        return n;
    }

    static List<String> answerList(String a) {
        return a.isBlank() ? List.of() : List.of(a);
    }
}
