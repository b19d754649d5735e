package dev.veracity.examples.citecheck;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.method.AgentPrompt;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodOptions;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.PromptTemplate;
import dev.veracity.method.QaMethod;
import dev.veracity.method.RolePrompt;
import dev.veracity.qa.AnswerNormalizer;
import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * cite-check: answer from numbered passages and cite the one that states the answer; keep the answer only when the
 * cited passage contains it, else abstain. One model call; the check is plain string containment after SQuAD
 * normalisation, so a model that cites a passage it did not read from loses its answer instead of passing it on.
 *
 * <p>An example of a method contributed by a plug-in (not one of the papers): its prompt is a resource beside it,
 * its reply is read by {@link CitedAnswer}, its reward is {@link CiteCheckReward}.
 */
public final class CiteCheck implements QaMethod {

    /** The method's name on the command line. */
    public static final String NAME = "cite-check";

    /** What the method answers when it abstains (one of the wordings {@code abstain} and TruthRL's metrics read). */
    public static final String ABSTAIN = "I don't know";

    static final MethodSpec SPEC = new MethodSpec(NAME,
            "Answer from numbered passages citing one; abstain unless the cited passage contains the answer.",
            "example plug-in", "examples/cite-check",
            List.of(OptionSpec.bool("check", true, "keep an answer only when a cited passage contains it"),
                    OptionSpec.integer("max-tokens", 256, "output limit of the call")));

    static final PromptTemplate PROMPT = PromptTemplate.resource(CiteCheck.class, "answer.txt");

    /** The one role, for training rows ({@code rl export}). */
    static final RolePrompt ANSWERER = RolePrompt.of("answerer", "numbered passages, answer and cite (answer.txt)",
            (item, c) -> List.of(new AgentPrompt("answerer", messages(item))));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MethodSpec spec() {
        return SPEC;
    }

    @Override
    public List<RolePrompt> rolePrompts() {
        return List.of(ANSWERER);
    }

    static List<ChatMessage> messages(QaItem item) {
        return List.of(ChatMessage.user(PROMPT.fill(Map.of("passages", passages(item.documents()),
                "question", item.question()))));
    }

    /** "[1] title. text" per passage, one per line: the numbers the reply cites. */
    static String passages(List<Document> docs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < docs.size(); i++) {
            Document d = docs.get(i);
            sb.append(i == 0 ? "" : "\n").append('[').append(i + 1).append("] ");
            if (!d.title().isBlank()) {
                sb.append(d.title()).append(". ");
            }
            sb.append(d.text().replace('\n', ' '));
        }
        return sb.toString();
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        MethodOptions options = SPEC.resolve(ctx.options());
        LlmRequest request = LlmRequest.chat(messages(item)).temperature(0.0).maxTokens(options.intValue("max-tokens"))
                .build();
        Completion out = ctx.llm().call(ctx.role("answerer", 0), request).first();
        CitedAnswer reply = CitedAnswer.parse(out.text());
        Map<String, Double> signals = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        String prediction;
        switch (reply) {
            case CitedAnswer.Unknown u -> {
                prediction = ABSTAIN;
                signals.put("supported", 0.0);
            }
            case CitedAnswer.Unreadable r -> {
                prediction = ABSTAIN;
                failures.add("answerer: " + r.reason());
                signals.put("supported", 0.0);
            }
            case CitedAnswer.Cited c -> {
                boolean supported = supported(c, item.documents());
                prediction = supported || !options.bool("check") ? c.answer() : ABSTAIN;
                signals.put("supported", supported ? 1.0 : 0.0);
            }
        }
        signals.put("abstained", prediction.equals(ABSTAIN) ? 1.0 : 0.0);
        return new MethodAnswer(prediction, List.of(prediction), failures, signals, out.text());
    }

    /** Whether some cited passage (a number within the passages shown) contains the answer, normalised as SQuAD does. */
    static boolean supported(CitedAnswer.Cited c, List<Document> docs) {
        String answer = AnswerNormalizer.squad(c.answer());
        if (answer.isEmpty()) {
            return false;
        }
        for (int n : c.passages()) {
            if (n <= docs.size()) {
                Document d = docs.get(n - 1);
                if ((" " + AnswerNormalizer.squad(d.title() + " " + d.text()) + " ").contains(" " + answer + " ")) {
                    return true;
                }
            }
        }
        return false;
    }
}
