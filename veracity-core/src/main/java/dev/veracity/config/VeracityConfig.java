package dev.veracity.config;

import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.client.ConcurrencyLimit;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the model is and how to call it. Resolved from, in increasing priority: defaults, a properties file,
 * environment variables, command-line flags.
 *
 * <table>
 * <caption>Settings</caption>
 * <tr><th>key (file / flag)</th><th>environment</th><th>default</th></tr>
 * <tr><td>llm-base-url</td><td>VERACITY_LLM_BASE_URL</td><td>http://127.0.0.1:8000/v1; several servers of the same
 * model comma-separated ({@link #llmBaseUrls()})</td></tr>
 * <tr><td>model</td><td>VERACITY_MODEL</td><td>default</td></tr>
 * <tr><td>api-key (file only)</td><td>VERACITY_API_KEY, else OPENAI_API_KEY</td><td>none</td></tr>
 * <tr><td>concurrency</td><td>VERACITY_CONCURRENCY</td><td>16 (a command may default to auto: eval does); a
 * positive integer, or auto for an adaptive limit ({@link ConcurrencyLimit})</td></tr>
 * <tr><td>cache</td><td>VERACITY_CACHE</td><td>read-write</td></tr>
 * <tr><td>cache-replay-unparseable</td><td>VERACITY_CACHE_REPLAY_UNPARSEABLE</td><td>false</td></tr>
 * <tr><td>cache-file</td><td>VERACITY_CACHE_FILE</td><td>.veracity/cache.db</td></tr>
 * <tr><td>trace-file</td><td>VERACITY_TRACE_FILE</td><td>.veracity/traces.db</td></tr>
 * <tr><td>timeout-seconds</td><td>VERACITY_TIMEOUT_SECONDS</td><td>120</td></tr>
 * <tr><td>max-attempts</td><td>VERACITY_MAX_ATTEMPTS</td><td>5</td></tr>
 * <tr><td>return-token-ids</td><td>VERACITY_RETURN_TOKEN_IDS</td><td>false: ask the server for its token ids and
 * logprobs (vLLM's {@code return_token_ids}) so training records keep them</td></tr>
 * </table>
 *
 * <p>The API key is taken from the environment or the file, never from a flag (flags land in shell history and
 * process lists).
 */
public record VeracityConfig(String llmBaseUrl, String model, Optional<ApiKey> apiKey, ConcurrencyLimit concurrency,
                             CacheMode cacheMode, Path cacheFile, Path traceFile, Duration timeout,
                             int maxAttempts, boolean cacheReplayUnparseable, boolean returnTokenIds) {

    /** The file read when none is given: {@code $XDG_CONFIG_HOME/veracity/config.properties} or under ~/.config. */
    public static Path defaultFile(Map<String, String> env) {
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("veracity").resolve("config.properties");
    }

    /**
     * Resolves the configuration.
     *
     * @param env   the environment (System.getenv() in production)
     * @param file  a properties file to read; a missing default file is fine, a missing named file is an error
     * @param named whether the file was named by the user (then it must exist)
     * @param flags settings from the command line, by key; null values are ignored
     */
    public static VeracityConfig resolve(Map<String, String> env, Path file, boolean named, Map<String, String> flags) {
        return resolve(env, file, named, flags, Map.of());
    }

    /**
     * Resolves the configuration, with a command's own defaults in place of the built-in ones (file, environment and
     * flags still win over them): {@code eval} defaults {@code concurrency} to {@code auto}.
     */
    public static VeracityConfig resolve(Map<String, String> env, Path file, boolean named, Map<String, String> flags,
                                         Map<String, String> commandDefaults) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("llm-base-url", "http://127.0.0.1:8000/v1");
        s.put("model", "default");
        s.put("concurrency", "16");
        s.put("cache", "read-write");
        s.put("cache-replay-unparseable", "false");
        s.put("cache-file", ".veracity/cache.db");
        s.put("trace-file", ".veracity/traces.db");
        s.put("timeout-seconds", "120");
        s.put("max-attempts", "5");
        s.put("return-token-ids", "false");
        commandDefaults.forEach((k, v) -> {
            if (!s.containsKey(k)) {
                throw new IllegalArgumentException("unknown setting '" + k + "'");
            }
            s.put(k, v);
        });
        String fileKey = null;
        if (file != null && (named || Files.exists(file))) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file)) {
                p.load(r);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage()
                        + " (pass --config with a readable properties file, or omit it)", e);
            }
            for (String k : p.stringPropertyNames()) {
                String key = k.trim().toLowerCase(Locale.ROOT);
                if (key.equals("api-key")) {
                    fileKey = p.getProperty(k).trim();
                } else if (s.containsKey(key)) {
                    s.put(key, p.getProperty(k).trim());
                } else {
                    throw new IllegalArgumentException("unknown setting '" + k + "' in " + file + "; known: "
                            + String.join(", ", s.keySet()) + ", api-key");
                }
            }
        }
        for (String key : s.keySet()) {
            String v = env.get("VERACITY_" + key.toUpperCase(Locale.ROOT).replace('-', '_'));
            if (v != null && !v.isBlank()) {
                s.put(key, v.trim());
            }
        }
        flags.forEach((k, v) -> {
            if (v != null) {
                if (!s.containsKey(k)) {
                    throw new IllegalArgumentException("unknown setting '" + k + "'");
                }
                s.put(k, v);
            }
        });
        String key = firstNonBlank(env.get("VERACITY_API_KEY"), env.get("OPENAI_API_KEY"), fileKey);
        return new VeracityConfig(httpUrls("llm-base-url", s.get("llm-base-url")), s.get("model"),
                Optional.ofNullable(key).map(ApiKey::of), ConcurrencyLimit.parse(s.get("concurrency")), CacheMode.parse(s.get("cache")),
                Path.of(s.get("cache-file")), Path.of(s.get("trace-file")),
                Duration.ofSeconds(positive(s, "timeout-seconds")), positive(s, "max-attempts"),
                bool(s, "cache-replay-unparseable"), bool(s, "return-token-ids"));
    }

    /** Resolves from the process environment and the default file. */
    public static VeracityConfig fromEnvironment(Map<String, String> flags) {
        Map<String, String> env = System.getenv();
        return resolve(env, defaultFile(env), false, flags);
    }

    /**
     * The servers a setting names: one http(s) URL with a host, or several comma-separated (servers of the same model
     * that share the calls), each checked before any client is built (the SDK fails deep inside on a bad one).
     *
     * @param setting the setting's name, for the message
     * @return the URLs as given, trimmed, joined by commas without spaces (one URL: itself, trimmed)
     * @throws IllegalArgumentException with a one-line message naming the setting and the bad URL
     */
    public static String httpUrls(String setting, String v) {
        String example = "e.g. http://127.0.0.1:8000/v1";
        if (v == null || !v.contains(",")) {
            if (isHttpUrl(v)) {
                return v.trim();
            }
            throw new IllegalArgumentException("setting '" + setting + "' must be an http(s) URL with a host, " + example
                    + "; was '" + v + "'");
        }
        List<String> urls = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            String u = part.trim();
            if (!isHttpUrl(u)) {
                throw new IllegalArgumentException("setting '" + setting + "' lists '" + u + "', not an http(s) URL with"
                        + " a host; list servers comma-separated, e.g. http://a:8000/v1,http://b:8000/v1");
            }
            if (urls.contains(u)) {
                throw new IllegalArgumentException("setting '" + setting + "' lists " + u + " twice; name each server"
                        + " once");
            }
            urls.add(u);
        }
        return String.join(",", urls);
    }

    private static boolean isHttpUrl(String v) {
        if (v == null) {
            return false;
        }
        try {
            java.net.URI u = new java.net.URI(v.trim());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    /** The servers of {@link #llmBaseUrl()}, one or more, in the order given. */
    public List<String> llmBaseUrls() {
        return splitUrls(llmBaseUrl);
    }

    /** The servers of a checked setting ({@link #httpUrls}), in the order given. */
    public static List<String> splitUrls(String urls) {
        return List.of(urls.split(","));
    }

    private static int positive(Map<String, String> s, String key) {
        String v = s.get(key);
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("setting '" + key + "' must be a positive integer, was '" + v + "'");
        }
    }

    private static boolean bool(Map<String, String> s, String key) {
        String v = s.get(key).trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0", "" -> false;
            default -> throw new IllegalArgumentException("setting '" + key + "' must be true or false, was '"
                    + s.get(key) + "'");
        };
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v.trim();
            }
        }
        return null;
    }

    /** This configuration with another trace database (an eval run keeps its traces in its own folder). */
    public VeracityConfig withTraceFile(Path file) {
        return new VeracityConfig(llmBaseUrl, model, apiKey, concurrency, cacheMode, cacheFile, file, timeout, maxAttempts,
                cacheReplayUnparseable, returnTokenIds);
    }

    /** This configuration pointed at another server and model (the demo's in-process simulator). */
    public VeracityConfig withServer(String baseUrl, String modelName) {
        return new VeracityConfig(baseUrl, modelName, apiKey, concurrency, cacheMode, cacheFile, traceFile, timeout,
                maxAttempts, cacheReplayUnparseable, returnTokenIds);
    }

    /** This configuration with the response cache off (calls to a policy that changes as it trains). */
    public VeracityConfig withoutCache() {
        return new VeracityConfig(llmBaseUrl, model, apiKey, concurrency, CacheMode.OFF, cacheFile, traceFile, timeout,
                maxAttempts, cacheReplayUnparseable, returnTokenIds);
    }

    @Override
    public String toString() {
        return "llm-base-url=" + llmBaseUrl + " model=" + model + " api-key=" + apiKey.map(ApiKey::toString).orElse("<none>")
                + " concurrency=" + concurrency + " cache=" + cacheMode
                + (cacheReplayUnparseable ? " cache-replay-unparseable=true" : "") + " cache-file=" + cacheFile
                + " trace-file=" + traceFile + " timeout=" + timeout.toSeconds() + "s max-attempts=" + maxAttempts
                + (returnTokenIds ? " return-token-ids=true" : "");
    }
}
