package dev.veracity.llm.cache;

import java.util.Locale;

/** How the client uses the response cache. */
public enum CacheMode {
    /** Never read or write: every call goes to the model. */
    OFF,
    /** Answer from the cache where possible; never write (replaying a frozen cache). */
    READ_ONLY,
    /** Answer from the cache where possible and store every new sample (the default). */
    READ_WRITE;

    public boolean reads() {
        return this != OFF;
    }

    public boolean writes() {
        return this == READ_WRITE;
    }

    /** Parses "off", "read-only"/"ro", "read-write"/"rw"; the error lists the accepted values. */
    public static CacheMode parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        return switch (v) {
            case "off", "none", "false" -> OFF;
            case "read-only", "ro", "read" -> READ_ONLY;
            case "read-write", "rw", "on", "true" -> READ_WRITE;
            default -> throw new IllegalArgumentException("unknown cache mode '" + value
                    + "': use off, read-only or read-write");
        };
    }
}
