package dev.veracity.sim;

import java.util.List;

/**
 * One session of the simulator's AReaL gateway ({@link SimServer#arealSessions()}), as it stood when asked.
 *
 * @param sessionId    the id start_session gave ({@code TASK-0}, {@code TASK-1}, ...)
 * @param taskId       the task id the client sent
 * @param interactions the session's chat completions in the order they were asked
 * @param ended        whether end_session was called
 */
public record ArealSession(String sessionId, String taskId, List<Interaction> interactions, boolean ended) {

    public ArealSession {
        interactions = List.copyOf(interactions);
    }

    /**
     * One chat completion of a session.
     *
     * @param id         its response id, AReaL's interaction id
     * @param prompt     the prompt text rules saw (the messages' contents joined by blank lines)
     * @param response   the answer's first choice, or null while it was being generated
     * @param reward     the last reward set on it, or null when none was
     * @param rewardsSet how many times set_reward named it (a client that sets a reward twice shows 2)
     */
    public record Interaction(String id, String prompt, String response, Double reward, int rewardsSet) {
    }
}
