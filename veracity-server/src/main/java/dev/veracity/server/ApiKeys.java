package dev.veracity.server;

import dev.veracity.config.ApiKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The API keys clients must present ({@code Authorization: Bearer KEY}), each with a label that is safe to log
 * ({@code key-1}, or the name given beside it). Matching hashes the presented token and compares it with every key's
 * hash in constant time, always all of them, so neither the time nor the length of a wrong token tells anything about a
 * right one. Every key is registered with {@link dev.veracity.config.Secrets}, so it is masked wherever it would appear.
 * <p>The file has one key per line, optionally followed by whitespace and a label ({@code sk-abc123 alice});
 * blank lines and lines starting with {@code #} are skipped. The environment variable holds keys separated by commas.
 */
public final class ApiKeys {

    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_.-]{1,40}");
    /** Shorter keys are guessable. */
    static final int MIN_KEY_LENGTH = 16;

    private record Key(byte[] sha256, String label) {
    }

    private final List<Key> keys;

    private ApiKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
    }

    public static ApiKeys none() {
        return new ApiKeys(List.of());
    }

    /**
     * The keys of a file and of an environment value (either may be null).
     *
     * @throws IllegalArgumentException for a key that is too short or a malformed line, naming the line, never the key
     */
    public static ApiKeys load(Path file, String envValue) throws IOException {
        List<Key> keys = new ArrayList<>();
        if (file != null) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\\s+");
                String where = file + " line " + (i + 1);
                if (parts.length > 2 || (parts.length == 2 && !LABEL.matcher(parts[1]).matches())) {
                    throw new IllegalArgumentException(where + ": write KEY or KEY LABEL (a label of letters, digits,"
                            + " '_', '.', '-')");
                }
                keys.add(key(parts[0], parts.length == 2 ? parts[1] : "key-" + (keys.size() + 1), where));
            }
        }
        if (envValue != null && !envValue.isBlank()) {
            int n = 0;
            for (String k : envValue.split(",")) {
                if (!k.isBlank()) {
                    n++;
                    keys.add(key(k.strip(), "env-" + n, "VERACITY_SERVE_API_KEYS entry " + n));
                }
            }
        }
        return new ApiKeys(keys);
    }

    private static Key key(String value, String label, String where) {
        if (value.length() < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException(where + ": a key needs at least " + MIN_KEY_LENGTH + " characters");
        }
        ApiKey.of(value); // masked from now on in every message and trace
        return new Key(sha256(value), label);
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    public int size() {
        return keys.size();
    }

    /** The label of the key the token is, or null; constant time over all keys. */
    String match(String token) {
        byte[] presented = sha256(token);
        String found = null;
        for (Key k : keys) {
            if (MessageDigest.isEqual(k.sha256(), presented) && found == null) {
                found = k.label();
            }
        }
        return found;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
