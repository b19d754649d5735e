package dev.veracity.method;

import java.util.List;
import java.util.function.Consumer;

/**
 * A method whose eval run leaves its agents' training records beside its answers, in the one agent-record schema
 * ({@link AgentRecord}): MARCH's Solver and Checker trajectories with the ZTR reward. The runner asks for a recording
 * copy of the method, appends each question's records to {@link #recordsFile()} in the run folder as the question is
 * answered, and names the file after the run; the RL exporters and {@code veracity rl inspect} read it. A method that
 * keeps no records does not implement this.
 */
public interface TrainingRecords {

    /** The file in the run folder, e.g. {@code march-records.jsonl}. */
    String recordsFile();

    /** What the file holds, as the line after the run names it. */
    String recordsDescription();

    /**
     * This method, recording: each question's records go to {@code sink} as the question is answered (concurrently:
     * the sink is thread-safe). Records that cannot be built fail their question alone, before any reach the sink.
     *
     * @param run the run the records belong to (the run folder's name)
     */
    QaMethod recording(String run, Consumer<List<AgentRecord>> sink);
}
