package dev.veracity.methods.madam;

import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;

/**
 * {@code madam-rag}: Multi-agent Debate for Ambiguity and Misinformation (Section 4). The prediction is the final
 * aggregation as a canonical {@code All Correct Answers: [...]. Explanation: ...} line and {@link
 * MethodAnswer#answers()} its parsed set. Options: {@code rounds} (T, default 3), {@code aggregator}
 * (false = answers joined, the Section 6.1 ablation), {@code early-stop}, {@code history}
 * ({@code others|aggregator|both}), {@code shuffle}, {@code max-tokens} (default 512); see {@link MadamSettings}.
 */
public final class MadamRag implements QaMethod {

    /** The declaration {@code eval} and {@code methods} read; the options are {@link MadamSettings#OPTIONS}. */
    public static final MethodSpec SPEC = new MethodSpec("madam-rag",
            "One agent per document, multi-round debate, an aggregator; answers are sets.", "MADAM-RAG",
            "Section 4 (prompts of App. E)", MadamSettings.OPTIONS);

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
        Transcript t = new Debate(MadamSettings.from(ctx)).run(item, ctx);
        return new MethodAnswer(t.result().prediction(), t.result().answers(), t.parseFailures()).withRaw(t.result().raw());
    }
}
