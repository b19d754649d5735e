package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.trace.TraceSink;
import java.util.List;

/**
 * The model stack a command runs on: backends, cache and client, built from the resolved configuration. Several
 * {@code llm-base-url}s give one backend each, and one client that shares the calls between them
 * ({@link LlmClient#builder(List)}).
 */
final class Stack implements AutoCloseable {

    final VeracityConfig config;
    /** The first server's backend. */
    final OpenAiCompatibleBackend backend;
    /** Every server's backend, in the order given. */
    final List<OpenAiCompatibleBackend> backends;
    final ResponseCache cache;
    final LlmClient client;

    Stack(VeracityConfig config, TraceSink traces) {
        this.config = config;
        this.backends = backends(config.llmBaseUrls(), config.model(), config);
        this.backend = backends.getFirst();
        this.cache = switch (config.cacheMode()) {
            case OFF -> ResponseCache.NONE;
            case READ_ONLY -> SqliteResponseCache.openReadOnly(config.cacheFile());
            case READ_WRITE -> SqliteResponseCache.open(config.cacheFile());
        };
        this.client = LlmClient.builder(backends).concurrency(config.concurrency()).timeout(config.timeout())
                .retry(RetrySettings.DEFAULT.withMaxAttempts(config.maxAttempts()))
                .cache(cache, config.cacheMode() == CacheMode.OFF ? CacheMode.OFF : config.cacheMode())
                .replayUnparseable(config.cacheReplayUnparseable())
                .traces(traces).build();
    }

    /**
     * Every server's backend asking {@code model} when a request names none: what a client of one upstream model of
     * {@code serve} (or {@code mcp}) is built on ({@link dev.veracity.server.UpstreamClients#pinned}).
     */
    List<dev.veracity.llm.LlmBackend> pinned(String model) {
        return backends.stream().map(b -> dev.veracity.server.UpstreamClients.pinned(b, model)).toList();
    }

    /** One backend per server, each asking {@code model} with the configuration's key and settings. */
    static List<OpenAiCompatibleBackend> backends(List<String> urls, String model, VeracityConfig config) {
        return urls.stream().map(url -> OpenAiCompatibleBackend.builder().baseUrl(url).model(model)
                .apiKey(config.apiKey().orElse(null)).returnTokenIds(config.returnTokenIds()).build()).toList();
    }

    @Override
    public void close() {
        client.close();
        backends.forEach(OpenAiCompatibleBackend::close);
        cache.close();
    }
}
