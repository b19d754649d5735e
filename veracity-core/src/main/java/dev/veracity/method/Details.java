package dev.veracity.method;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The details of an answer ({@link DetailKey}: what a method reports beyond the kernel's fields), in the order they
 * were attached; immutable.
 */
public final class Details {

    /** No details. */
    public static final Details NONE = new Details(Map.of());

    private final Map<DetailKey<?>, Object> values;

    private Details(Map<DetailKey<?>, Object> values) {
        this.values = values;
    }

    /** The detail's value, or empty. */
    public <T> Optional<T> get(DetailKey<T> key) {
        Object v = values.get(key);
        return v == null ? Optional.empty() : Optional.of(key.check(v));
    }

    /** These details with the key's value (replacing an earlier one of the key). */
    public <T> Details with(DetailKey<T> key, T value) {
        Objects.requireNonNull(key, "key");
        key.check(Objects.requireNonNull(value, "value"));
        Map<DetailKey<?>, Object> m = new LinkedHashMap<>(values);
        m.remove(key);
        m.put(key, value);
        return new Details(Collections.unmodifiableMap(m));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** Writes each detail into the object under its key's name, in order. */
    public void writeTo(ObjectNode object) {
        values.forEach((k, v) -> object.set(k.name(), write(k, v)));
    }

    private static <T> com.fasterxml.jackson.databind.JsonNode write(DetailKey<T> key, Object value) {
        return key.write(key.check(value));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Details d && d.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
