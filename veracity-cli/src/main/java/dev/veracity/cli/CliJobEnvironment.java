package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.run.EvalJob;
import dev.veracity.eval.run.JobEnvironment;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.trace.TraceSink;
import java.util.Map;
import java.util.function.Function;

/**
 * What the CLI's eval jobs run on: the OpenAI-compatible model stack of the model flags ({@link Stack}), C-3PO's proxy
 * of the proxy flags ({@link ProxyOptions}), the servers' {@link Preflight}, and a command's view of the progress.
 */
final class CliJobEnvironment implements JobEnvironment {

    private final ProxyOptions proxy;
    private final Function<EvalJob, Watch> watch;

    /**
     * @param proxy the proxy flags (none given: the methods use the LLM's client)
     * @param watch the command's view of a job's progress
     */
    CliJobEnvironment(ProxyOptions proxy, Function<EvalJob, Watch> watch) {
        this.proxy = proxy;
        this.watch = watch;
    }

    /** A view that shows nothing (the demo prints a line per method itself). */
    static Watch silent() {
        return new Watch() {
            @Override
            public void accept(dev.veracity.eval.run.EvalRunner.Progress p) {
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void preflight(VeracityConfig model) {
        Preflight.check(model);
        if (proxy != null) {
            proxy.preflight(model);
        }
    }

    @Override
    public String proxy(VeracityConfig model) {
        return proxy != null && proxy.given() ? proxy.describe(model) : null;
    }

    @Override
    public Models models(VeracityConfig config, TraceSink traces) {
        Stack stack = new Stack(config, traces);
        ProxyOptions.Proxy second;
        try {
            second = proxy == null ? null : proxy.open(stack, traces);
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
        Map<String, LlmClient> clients = ProxyOptions.clients(second);
        return new Models() {
            @Override
            public LlmClient client() {
                return stack.client;
            }

            @Override
            public Map<String, LlmClient> clients() {
                return clients;
            }

            @Override
            public void close() {
                try {
                    if (second != null) {
                        second.close();
                    }
                } finally {
                    stack.close();
                }
            }
        };
    }

    @Override
    public Watch watch(EvalJob job) {
        return watch.apply(job);
    }
}
