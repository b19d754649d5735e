package dev.veracity.trace;

import java.util.Objects;

/**
 * Where a model call belongs: which run, question and method, which agent role and which step. Every traced
 * call carries one, so a transcript can be read back per question and per agent.
 *
 * @param runId      the run (an evaluation run, a demo, a verify command)
 * @param questionId the question within the run ("" when there is none)
 * @param method     the method (madam-rag, march, ...) or "" for ad-hoc calls
 * @param role       the agent role (solver, checker, aggregator, ...)
 * @param step       the step or round within the role, from 0
 */
public record CallContext(String runId, String questionId, String method, String role, int step) {

    public CallContext {
        runId = Objects.requireNonNullElse(runId, "");
        questionId = Objects.requireNonNullElse(questionId, "");
        method = Objects.requireNonNullElse(method, "");
        role = Objects.requireNonNullElse(role, "");
    }

    /** Context for ad-hoc calls outside any run. */
    public static final CallContext NONE = new CallContext("", "", "", "", 0);

    public static CallContext of(String runId, String questionId, String method) {
        return new CallContext(runId, questionId, method, "", 0);
    }

    public CallContext role(String role) {
        return new CallContext(runId, questionId, method, role, step);
    }

    public CallContext step(int step) {
        return new CallContext(runId, questionId, method, role, step);
    }

    public CallContext question(String questionId) {
        return new CallContext(runId, questionId, method, role, step);
    }
}
