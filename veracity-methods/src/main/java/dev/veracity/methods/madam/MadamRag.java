package dev.veracity.methods.madam;

import dev.veracity.method.AgentPrompt;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.method.RolePrompt;
import dev.veracity.qa.QaItem;
import java.util.List;

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

    /**
     * Every agent's round-1 prompt (its question and its document, Appendix E), one per document: each agent is the
     * same policy, so each is a training prompt. Later rounds add the other agents' answers and are not exposed.
     */
    static final RolePrompt AGENT = RolePrompt.of("agent",
            "each document's agent, round 1 (App. E Individual Agent): one prompt per document",
            (item, c) -> Agent.forDocuments(item.documents()).stream()
                    .map(a -> new AgentPrompt(a.name(), a.messages(item.question(), null))).toList());

    @Override
    public List<RolePrompt> rolePrompts() {
        return List.of(AGENT);
    }

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
        return new MethodAnswer(t.result().prediction(), t.result().answers(), t.parseFailures()).withRaw(t.result().raw())
                .withDetail(MadamDetail.KEY, MadamDetail.of(t));
    }
}
