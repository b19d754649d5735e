package dev.veracity.llm.client;

import dev.veracity.trace.CallContext;

/**
 * Which of the calls waiting for one of the client's slots takes the next one freed: the lowest rank, and among equal
 * ranks the call that waited longest. Asked once per call, before its first attempt. By default a call ranks at its
 * question's place in its run ({@link CallContext#order()}); a run may rank its own calls otherwise for a while
 * ({@link LlmClient#rankRun}), as the evaluation runner does at a run's end.
 */
@FunctionalInterface
public interface CallRanking {

    long rank(CallContext context);
}
