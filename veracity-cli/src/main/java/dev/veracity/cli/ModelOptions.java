package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The model flags every command that calls a model shares. Unset flags fall back to the environment, then to the
 * config file ({@link VeracityConfig}).
 */
public final class ModelOptions {

    @Option(names = "--llm-base-url", paramLabel = "URL",
            description = "OpenAI-compatible server root, e.g. http://127.0.0.1:8000/v1 (env VERACITY_LLM_BASE_URL).")
    String baseUrl;

    @Option(names = "--model", paramLabel = "NAME", description = "Model name (env VERACITY_MODEL).")
    String model;

    @Option(names = "--concurrency", paramLabel = "N|auto",
            description = "Most model calls in flight at once, or auto: a limit that grows while the server's latency"
                    + " stays flat and backs off when it queues or answers 429/503 (env VERACITY_CONCURRENCY;"
                    + " default auto for eval, 16 elsewhere).")
    String concurrency;

    @Option(names = "--cache", paramLabel = "MODE",
            description = "Response cache: off, read-only or read-write (env VERACITY_CACHE; default read-write).")
    String cache;

    @Option(names = "--cache-replay-unparseable", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            description = "Serve cached samples a method marked unparseable instead of asking the model again "
                    + "(env VERACITY_CACHE_REPLAY_UNPARSEABLE; default false).")
    Boolean cacheReplayUnparseable;

    @Option(names = "--cache-file", paramLabel = "FILE", description = "Cache database (default .veracity/cache.db).")
    Path cacheFile;

    @Option(names = "--trace-file", paramLabel = "FILE", description = "Trace database (default .veracity/traces.db).")
    Path traceFile;

    @Option(names = "--timeout-seconds", paramLabel = "S", description = "Per-attempt timeout (default 120).")
    Integer timeoutSeconds;

    @Option(names = "--return-token-ids", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            description = "Ask the server for its token ids and logprobs (vLLM >= 0.10.2 return_token_ids) so training"
                    + " records keep prompt_ids, response_ids and logprobs (env VERACITY_RETURN_TOKEN_IDS; default false).")
    Boolean returnTokenIds;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file with defaults (default ~/.config/veracity/config.properties). "
                    + "The API key comes from VERACITY_API_KEY, OPENAI_API_KEY or this file, never a flag.")
    Path config;

    /** True when the user named a server, so that commands which default to the simulator use it instead. */
    boolean namesAServer() {
        return baseUrl != null || System.getenv("VERACITY_LLM_BASE_URL") != null;
    }

    VeracityConfig resolve() {
        return resolve(Map.of());
    }

    /** Resolves with a command's own defaults in place of the built-in ones ({@code eval}: concurrency auto). */
    VeracityConfig resolve(Map<String, String> commandDefaults) {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("llm-base-url", baseUrl);
        flags.put("model", model);
        flags.put("concurrency", concurrency);
        flags.put("cache", cache);
        flags.put("cache-replay-unparseable", cacheReplayUnparseable == null ? null : cacheReplayUnparseable.toString());
        flags.put("cache-file", cacheFile == null ? null : cacheFile.toString());
        flags.put("trace-file", traceFile == null ? null : traceFile.toString());
        flags.put("timeout-seconds", timeoutSeconds == null ? null : timeoutSeconds.toString());
        flags.put("return-token-ids", returnTokenIds == null ? null : returnTokenIds.toString());
        Map<String, String> env = System.getenv();
        Path file = config != null ? config : VeracityConfig.defaultFile(env);
        return VeracityConfig.resolve(env, file, config != null, flags, commandDefaults);
    }
}
