package dev.veracity.cli;

import dev.veracity.server.ApiKeys;
import dev.veracity.server.ServeSettings;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The API-key and per-key limit flags of the HTTP doors to the methods ({@code serve}, {@code mcp --port}), declared
 * once.
 */
final class KeyOptions {

    @Option(names = "--api-keys-file", paramLabel = "FILE", description = "Keys clients must send as Authorization: Bearer"
            + " KEY, one per line (KEY or KEY LABEL; # comments). Also VERACITY_SERVE_API_KEYS (comma-separated). A --host"
            + " other than this machine needs them, or --insecure-listen.")
    Path apiKeysFile;

    @Option(names = "--insecure-listen", description = "Listen on a non-loopback --host without API keys: anyone who"
            + " reaches the port can use the upstream model.")
    boolean insecureListen;

    @Option(names = "--rate-limit", defaultValue = "0", paramLabel = "N", description = "Requests per minute per key"
            + " (without keys: for everyone together), bursts of 10 s worth; 0 for none (default).")
    int rateLimit;

    @Option(names = "--max-in-flight-per-key", defaultValue = "0", paramLabel = "N",
            description = "Requests per key at once; 0 for none (default).")
    int maxInFlightPerKey;

    /** The settings with the keys (file and environment) and the limits. */
    ServeSettings applyTo(ServeSettings settings) throws IOException {
        ApiKeys keys = ApiKeys.load(apiKeysFile, System.getenv("VERACITY_SERVE_API_KEYS"));
        return settings.withKeys(keys).withInsecureListen(insecureListen).withRequestsPerMinute(rateLimit)
                .withMaxInFlightPerKey(maxInFlightPerKey);
    }
}
