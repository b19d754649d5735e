package dev.veracity.eval.judge;

import dev.veracity.trace.CallContext;

/**
 * Grades a prediction against gold answers. Implementations are total: a judge output that cannot be read gives
 * {@link Outcome#UNPARSEABLE}, never an exception and never a silent score. Model failures
 * ({@code LlmCallFailedException}) do propagate: they are not the judge's verdict.
 */
@FunctionalInterface
public interface Judge {

    /**
     * @param in  what to grade
     * @param ctx the caller's context (run, question, method); the judge's calls are traced with role "judge"
     */
    Verdict judge(JudgeInput in, CallContext ctx);

    /** A short name for reports. */
    default String name() {
        return getClass().getSimpleName();
    }
}
