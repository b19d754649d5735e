package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.client.ConcurrencyLimit;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.method.ModelRole;
import dev.veracity.trace.TraceSink;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The second model backend of methods whose agents run on two models (C-3PO: the small proxy beside the large LLM
 * of {@code --llm-base-url/--model}). Unset, the proxy is the LLM's server and model (C-3PO-ICL when that is a
 * large instruction model); a flag given alone takes the other from the LLM's.
 */
public final class ProxyOptions {

    @Option(names = "--proxy-base-url", paramLabel = "URL",
            description = "OpenAI-compatible server of the proxy model (default: --llm-base-url); several servers of the"
                    + " same model comma-separated.")
    String baseUrl;

    @Option(names = "--proxy-model", paramLabel = "NAME", description = "The proxy's model name (default: --model).")
    String model;

    @Option(names = "--proxy-concurrency", paramLabel = "N",
            description = "Most proxy calls in flight at once (default: --concurrency).")
    Integer concurrency;

    boolean given() {
        return baseUrl != null || model != null || concurrency != null;
    }

    /** The proxy's backend and client beside the stack's (same cache, traces, timeout and retries); closes both. */
    static final class Proxy implements AutoCloseable {
        final List<OpenAiCompatibleBackend> backends;
        final LlmClient client;

        Proxy(List<OpenAiCompatibleBackend> backends, LlmClient client) {
            this.backends = backends;
            this.client = client;
        }

        @Override
        public void close() {
            client.close();
            backends.forEach(OpenAiCompatibleBackend::close);
        }
    }

    /** The proxy's client, or null when no proxy flag was given (the methods then use the LLM's client). */
    Proxy open(Stack stack, TraceSink traces) {
        if (!given()) {
            return null;
        }
        VeracityConfig cfg = stack.config;
        if (concurrency != null && concurrency < 1) {
            throw new IllegalArgumentException("--proxy-concurrency must be >= 1, was " + concurrency);
        }
        ConcurrencyLimit n = concurrency != null ? ConcurrencyLimit.fixed(concurrency) : cfg.concurrency();
        List<OpenAiCompatibleBackend> backends = Stack.backends(VeracityConfig.splitUrls(url(cfg)),
                model != null ? model : cfg.model(), cfg);
        LlmClient client = LlmClient.builder(backends).concurrency(n).timeout(cfg.timeout())
                .retry(RetrySettings.DEFAULT.withMaxAttempts(cfg.maxAttempts()))
                .cache(stack.cache, cfg.cacheMode() == CacheMode.OFF ? CacheMode.OFF : cfg.cacheMode())
                .replayUnparseable(cfg.cacheReplayUnparseable()).traces(traces).build();
        return new Proxy(backends, client);
    }

    /**
     * The preflight of the proxy's server and model ({@link Preflight}), before any question: nothing to check when no
     * proxy flag was given or the proxy is the LLM's server and model (checked already).
     */
    void preflight(VeracityConfig cfg) {
        String url = url(cfg);
        String name = model != null ? model : cfg.model();
        if (given() && !(url.equals(cfg.llmBaseUrl()) && name.equals(cfg.model()))) {
            Preflight.checkProxy(cfg, url, name);
        }
    }

    /**
     * The models by role name for a runner to bind to the roles a method declares ({@link ModelRole#bind}): C-3PO's
     * {@link dev.veracity.methods.c3po.Agent#PROXY}, or none.
     */
    static Map<String, LlmClient> clients(Proxy proxy) {
        return proxy == null ? Map.of() : Map.of(dev.veracity.methods.c3po.Agent.PROXY.name(), proxy.client);
    }

    /** The proxy's servers, checked and joined by commas ({@link VeracityConfig#httpUrls}): its own, else the LLM's. */
    String url(VeracityConfig cfg) {
        return baseUrl != null ? VeracityConfig.httpUrls("--proxy-base-url", baseUrl) : cfg.llmBaseUrl();
    }

    /** How the run records it. */
    String describe(VeracityConfig cfg) {
        return given() ? url(cfg) + " model=" + (model != null ? model : cfg.model())
                : "same as the LLM";
    }
}
