package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.cache.ResponseCache;
import dev.veracity.llm.cache.SqliteResponseCache;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.llm.client.RetrySettings;
import dev.veracity.llm.openai.OpenAiCompatibleBackend;
import dev.veracity.trace.TraceSink;

/** The model stack a command runs on: backend, cache and client, built from the resolved configuration. */
final class Stack implements AutoCloseable {

    final VeracityConfig config;
    final OpenAiCompatibleBackend backend;
    final ResponseCache cache;
    final LlmClient client;

    Stack(VeracityConfig config, TraceSink traces) {
        this.config = config;
        this.backend = OpenAiCompatibleBackend.builder().baseUrl(config.llmBaseUrl()).model(config.model())
                .apiKey(config.apiKey().orElse(null)).returnTokenIds(config.returnTokenIds()).build();
        this.cache = switch (config.cacheMode()) {
            case OFF -> ResponseCache.NONE;
            case READ_ONLY -> SqliteResponseCache.openReadOnly(config.cacheFile());
            case READ_WRITE -> SqliteResponseCache.open(config.cacheFile());
        };
        this.client = LlmClient.builder(backend).concurrency(config.concurrency()).timeout(config.timeout())
                .retry(RetrySettings.DEFAULT.withMaxAttempts(config.maxAttempts()))
                .cache(cache, config.cacheMode() == CacheMode.OFF ? CacheMode.OFF : config.cacheMode())
                .replayUnparseable(config.cacheReplayUnparseable())
                .traces(traces).build();
    }

    @Override
    public void close() {
        client.close();
        backend.close();
        cache.close();
    }
}
