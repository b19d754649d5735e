package dev.veracity.config;

import java.util.Objects;

/**
 * An API key. Its {@link #toString()} never shows the key; use {@link #reveal()} only where the key goes on
 * the wire. Creating one registers it with {@link Secrets} so it is masked in any message.
 */
public final class ApiKey {

    private final String value;

    private ApiKey(String value) {
        this.value = value;
        Secrets.register(value);
    }

    public static ApiKey of(String value) {
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            throw new IllegalArgumentException("an API key cannot be blank");
        }
        return new ApiKey(value.trim());
    }

    /** The key itself, for the Authorization header only. */
    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return Secrets.mask(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ApiKey other && value.equals(other.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}
