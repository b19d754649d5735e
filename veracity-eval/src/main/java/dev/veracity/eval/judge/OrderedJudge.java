package dev.veracity.eval.judge;

import dev.veracity.eval.metrics.TruthRlOrder;
import dev.veracity.trace.CallContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Judge} asked as TruthRL's order asks it ({@link TruthRlOrder.GoldJudge}): about one gold answer at a
 * time, its calls traced with role {@value LlmJudge#ROLE}. It keeps every verdict it gave, for the result line's
 * {@code judge} object. One per graded response, shared by every metric judged over it (the truthfulness metrics
 * over the raw response and over the answer): a (answer, gold) pair already judged is answered from memory, with no
 * call. Not shared between threads.
 */
public final class OrderedJudge implements TruthRlOrder.GoldJudge {

    private final Judge judge;
    private final String question;
    private final Optional<String> queryTime;
    private final CallContext ctx;
    private final List<Verdict> verdicts = new ArrayList<>();
    private final java.util.Map<String, TruthRlOrder.GoldVerdict> asked = new java.util.HashMap<>();

    /**
     * @param queryTime the question's query time, or null
     * @param ctx       the caller's context
     */
    public OrderedJudge(Judge judge, String question, String queryTime, CallContext ctx) {
        this.judge = Objects.requireNonNull(judge, "judge");
        this.question = question;
        this.queryTime = Optional.ofNullable(queryTime);
        this.ctx = Objects.requireNonNull(ctx, "ctx").role(LlmJudge.ROLE);
    }

    @Override
    public TruthRlOrder.GoldVerdict judge(String answer, String gold, int index) {
        return asked.computeIfAbsent(answer + "\u0000" + gold, k -> {
            Verdict v = judge.judge(new JudgeInput(question, answer, List.of(gold), queryTime), ctx);
            verdicts.add(v);
            return switch (v.outcome()) {
                case CORRECT -> TruthRlOrder.GoldVerdict.CORRECT;
                case INCORRECT -> TruthRlOrder.GoldVerdict.INCORRECT;
                case UNPARSEABLE -> TruthRlOrder.GoldVerdict.UNREAD;
            };
        });
    }

    /** The verdicts given so far, in the order asked. */
    public List<Verdict> verdicts() {
        return Collections.unmodifiableList(verdicts);
    }

    /** The judge's name. */
    public String name() {
        return judge.name();
    }

    /** Unparseable samples over every verdict given. */
    public long unparseableSamples() {
        return verdicts.stream().mapToLong(Verdict::unparseableSamples).sum();
    }

    /** The explanation of the last verdict given, "" when the judge was not asked. */
    public String explanation() {
        return verdicts.isEmpty() ? "" : verdicts.getLast().explanation();
    }
}
