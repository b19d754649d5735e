package dev.veracity.eval.run;

import dev.veracity.config.VeracityConfig;
import dev.veracity.llm.ScriptedBackend;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.TraceSink;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An eval job's environment for tests: one scripted backend behind every model, no proxy, no progress display; it
 * counts the server checks and the clients a job asked of it.
 */
class ScriptedJobEnvironment implements JobEnvironment {

    /** The dataset's own passages: no index, no pages, no embedder. */
    static final JobDocuments OWN_DOCUMENTS = new JobDocuments.OwnPassages();

    final AtomicInteger preflights = new AtomicInteger();
    final AtomicInteger opened = new AtomicInteger();
    final ScriptedBackend backend;

    ScriptedJobEnvironment(ScriptedBackend backend) {
        this.backend = backend;
    }

    @Override
    public void preflight(VeracityConfig model) {
        preflights.incrementAndGet();
    }

    @Override
    public String proxy(VeracityConfig model) {
        return null;
    }

    @Override
    public Models models(VeracityConfig config, TraceSink traces) {
        opened.incrementAndGet();
        LlmClient client = LlmClient.builder(backend).traces(traces).build();
        return new Models() {
            @Override
            public LlmClient client() {
                return client;
            }

            @Override
            public Map<String, LlmClient> clients() {
                return Map.of();
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }

    @Override
    public Watch watch(EvalJob job) {
        return new Watch() {
            @Override
            public void accept(EvalRunner.Progress p) {
            }

            @Override
            public void close() {
            }
        };
    }
}
