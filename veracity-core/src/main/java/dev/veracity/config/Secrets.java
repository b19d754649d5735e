package dev.veracity.config;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps credentials out of traces, logs and error messages. Every API key the configuration loads is
 * registered here; {@link #redact(String)} masks any registered secret in a text before it leaves the process
 * (error messages, trace records). Servers sometimes echo the Authorization header in their error bodies, so
 * masking at the exit is safer than trusting every code path.
 */
public final class Secrets {

    private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();
    /** Shorter strings would mask ordinary words. */
    private static final int MIN_LENGTH = 6;

    private Secrets() {
    }

    /** Registers a secret so that it is masked wherever it would appear. */
    public static void register(String secret) {
        if (secret != null && secret.length() >= MIN_LENGTH) {
            KNOWN.add(secret);
        }
    }

    /**
     * Forgets a secret that is dead (an AReaL session key after its session ended), so short-lived keys do not pile
     * up in the set every redaction scans.
     */
    public static void forget(String secret) {
        if (secret != null) {
            KNOWN.remove(secret);
        }
    }

    /** The text with every registered secret replaced by a mask. Null stays null. */
    public static String redact(String text) {
        if (text == null || KNOWN.isEmpty()) {
            return text;
        }
        String out = text;
        for (String s : KNOWN) {
            if (out.contains(s)) {
                out = out.replace(s, mask(s));
            }
        }
        return out;
    }

    /** A safe rendering of a secret: its length and last two characters at most. */
    public static String mask(String secret) {
        if (secret == null || secret.isEmpty()) {
            return "<none>";
        }
        return "<redacted:" + secret.length() + " chars>";
    }
}
