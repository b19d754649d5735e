package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.trace.TraceSink;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import picocli.CommandLine.Option;

/**
 * The upstream flags of the commands that serve the methods ({@code serve}, {@code mcp}), declared once: the upstream
 * server ({@code --upstream-base-url}, the same as {@code --llm-base-url}) and the other models a request may name.
 */
final class UpstreamOptions {

    @Option(names = "--upstream-base-url", paramLabel = "URL", description = "The OpenAI-compatible server the methods"
            + " call, e.g. http://127.0.0.1:8000/v1 (the same as --llm-base-url); several servers of the same model"
            + " comma-separated.")
    String upstreamBaseUrl;

    @Option(names = "--upstream-models", split = ",", paramLabel = "NAME", description = "Other upstream models a request"
            + " may name as METHOD@NAME (the default is --model).")
    List<String> upstreamModels = new ArrayList<>();

    /** Gives {@code --upstream-base-url} to the model options; both given and different is an error. */
    void applyTo(ModelOptions model) {
        if (upstreamBaseUrl != null) {
            if (model.baseUrl != null && !model.baseUrl.equals(upstreamBaseUrl)) {
                throw new IllegalArgumentException("give the upstream once: --upstream-base-url or --llm-base-url");
            }
            model.baseUrl = upstreamBaseUrl;
        }
    }

    /** The default model first, then the others, each once. */
    List<String> models(VeracityConfig cfg) {
        List<String> models = new ArrayList<>();
        models.add(cfg.model());
        upstreamModels.stream().map(String::strip).filter(m -> !m.isEmpty() && !models.contains(m)).forEach(models::add);
        return models;
    }

    /** The client of one upstream model, as the configuration says: concurrency, timeout, retries, cache, traces. */
    static BiFunction<LlmBackend, TraceSink, LlmClient> clients(VeracityConfig cfg, Stack stack) {
        RetrySettings retry = RetrySettings.DEFAULT.withMaxAttempts(cfg.maxAttempts());
        // every server's backend pinned to the model the request named: the calls spread over all of them
        return (pinned, sink) -> LlmClient.builder(stack.pinned(pinned.defaultModel()))
                .concurrency(cfg.concurrency()).timeout(cfg.timeout()).retry(retry)
                .cache(stack.cache, cfg.cacheMode() == CacheMode.OFF ? CacheMode.OFF : cfg.cacheMode())
                .replayUnparseable(cfg.cacheReplayUnparseable()).traces(sink).build();
    }
}
