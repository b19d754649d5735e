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
 * @param order      the question's place among the run's questions (0 outside a run): a model client whose calls
 *                   wait for a slot serves those of earlier questions first, so that a run admitting more questions
 *                   than slots finishes its questions in order and its last ones do not wait behind later ones
 * @param branches   whether the call's answer picks the question's path among paths of different lengths (C-3PO's
 *                   Reasoning Router: an answer at once, one retrieval pass, or a plan of several steps): a hint for
 *                   the order of a run's calls at its end, where such a call goes first ({@link #branching()}); not
 *                   traced
 */
public record CallContext(String runId, String questionId, String method, String role, int step, long order,
                          boolean branches) {

    /** A context at a place in a run's order, for a call that does not pick its question's path. */
    public CallContext(String runId, String questionId, String method, String role, int step, long order) {
        this(runId, questionId, method, role, step, order, false);
    }

    /** A context without a place in a run's order (0: served in arrival order among its equals). */
    public CallContext(String runId, String questionId, String method, String role, int step) {
        this(runId, questionId, method, role, step, 0);
    }

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
        return new CallContext(runId, questionId, method, role, step, order, branches);
    }

    public CallContext step(int step) {
        return new CallContext(runId, questionId, method, role, step, order, branches);
    }

    public CallContext question(String questionId) {
        return new CallContext(runId, questionId, method, role, step, order, branches);
    }

    /** This context at the question's place in its run ({@link #order()}). */
    public CallContext order(long order) {
        return new CallContext(runId, questionId, method, role, step, order, branches);
    }

    /**
     * This context for a call whose answer picks the question's path ({@link #branches()}). Until it returns, how
     * many calls the question has ahead is not known; at a run's end it goes before calls whose chain ahead is, so
     * that a question admitted late whose path turns out long starts that path early.
     */
    public CallContext branching() {
        return new CallContext(runId, questionId, method, role, step, order, true);
    }
}
