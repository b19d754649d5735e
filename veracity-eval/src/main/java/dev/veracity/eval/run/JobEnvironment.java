package dev.veracity.eval.run;

import dev.veracity.config.VeracityConfig;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.TraceSink;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What an {@link EvalJob} runs on that its front end provides: the model servers (checked, then opened as clients
 * with their cache and traces) and the view of the run's progress. The CLI's model and proxy flags are one; a test
 * scripts one.
 */
public interface JobEnvironment {

    /**
     * Checks the servers the job calls ({@code GET /models}), before any question; a server that is down or does not
     * serve the model is a one-line error.
     */
    void preflight(VeracityConfig model);

    /** How {@code run.json} records a second backend (C-3PO's proxy), or null when the methods use the LLM's. */
    String proxy(VeracityConfig model);

    /** The clients of the run: the LLM's, and the named ones of methods that run on two backends. */
    Models models(VeracityConfig config, TraceSink traces);

    /** The run's progress as the front end shows it (a bar, log lines, what a Ctrl-C leaves), closed after the run. */
    Watch watch(EvalJob job);

    /** The run's model clients, closed after it. */
    interface Models extends AutoCloseable {

        LlmClient client();

        /** Named clients for {@link dev.veracity.method.MethodContext} (C-3PO's {@code proxy}), or none. */
        Map<String, LlmClient> clients();

        @Override
        void close();
    }

    /** Receives the run's progress; closed when it ends. */
    interface Watch extends Consumer<EvalRunner.Progress>, AutoCloseable {

        @Override
        void close();
    }
}
