package dev.veracity.eval.judge;

import dev.veracity.llm.ChatMessage;
import dev.veracity.llm.Completion;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.CallContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A judge that asks a model through {@link LlmClient} (so its calls are limited, retried, cached and traced like
 * any other) with the caller's context and role {@value #ROLE}, samples k outputs per prompt (one request with
 * n = k), parses each with {@link #parse(String)} and takes the majority ({@link Verdict#majority}). Every
 * verdict is recorded in {@link #stats()}.
 */
public abstract class LlmJudge implements Judge {

    /** The trace role of every judge call. */
    public static final String ROLE = "judge";

    private final LlmClient client;
    private final JudgeOptions options;
    private final JudgeStats stats = new JudgeStats();

    protected LlmJudge(LlmClient client, JudgeOptions options) {
        this.client = Objects.requireNonNull(client, "client");
        this.options = Objects.requireNonNull(options, "options");
    }

    public JudgeOptions options() {
        return options;
    }

    /** The counts of every verdict this judge gave. */
    public JudgeStats stats() {
        return stats;
    }

    /** Reads one judge output. Must be total: any string, null included, gives a result. */
    public abstract Parsed parse(String output);

    @Override
    public final Verdict judge(JudgeInput in, CallContext ctx) {
        Verdict v = decide(Objects.requireNonNull(in, "in"), Objects.requireNonNull(ctx, "ctx").role(ROLE));
        stats.record(v);
        return v;
    }

    /** The verdict for one input; {@code ctx} already carries the judge role. */
    protected abstract Verdict decide(JudgeInput in, CallContext ctx);

    /** Asks for k samples of one prompt and parses each; {@code gold} labels the votes (null: all golds). */
    protected final List<Vote> sample(String prompt, String gold, CallContext ctx) {
        return sample(List.of(ChatMessage.user(prompt)), gold, ctx);
    }

    /** The same for a prompt of several messages (a system message, then the user's). */
    protected final List<Vote> sample(List<ChatMessage> messages, String gold, CallContext ctx) {
        LlmRequest.Builder b = LlmRequest.chat(messages).n(options.samples()).temperature(options.temperature())
                .maxTokens(options.maxTokens());
        if (options.model() != null) {
            b.model(options.model());
        }
        LlmResponse r = client.call(ctx, b.build());
        List<Vote> votes = new ArrayList<>();
        List<Completion> cs = r.completions();
        for (int i = 0; i < cs.size(); i++) {
            String raw = cs.get(i).text();
            Parsed p = parse(raw);
            votes.add(new Vote(gold, i, p.outcome(), raw, p.explanation()));
        }
        return votes;
    }

    /**
     * Judges against each gold answer in turn (the trace step is the gold's index) and stops at the first gold
     * judged CORRECT, as TruthRL's "else LLM judge per gold" does. The result is CORRECT if any gold is judged
     * correct; else UNPARSEABLE if any gold's samples could not be read (that gold might have matched, so the
     * prediction is not scored incorrect on our parser's word); else INCORRECT. The votes are all golds' samples.
     */
    protected final Verdict perGold(JudgeInput in, CallContext ctx,
                                    java.util.function.Function<String, List<ChatMessage>> messages) {
        List<Vote> all = new ArrayList<>();
        boolean unparseable = false;
        List<String> golds = in.goldAnswers();
        for (int g = 0; g < golds.size(); g++) {
            List<Vote> votes = sample(messages.apply(golds.get(g)), golds.get(g), ctx.step(g));
            all.addAll(votes);
            Verdict v = Verdict.majority(votes);
            if (v.outcome() == Outcome.CORRECT) {
                return new Verdict(Outcome.CORRECT, all, v.explanation());
            }
            unparseable |= v.outcome() == Outcome.UNPARSEABLE;
        }
        Outcome o = unparseable ? Outcome.UNPARSEABLE : Outcome.INCORRECT;
        return new Verdict(o, all, Verdict.explanationFor(o, all));
    }
}
