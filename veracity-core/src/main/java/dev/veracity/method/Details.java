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

    /**
     * Details whose names have a field of their own in a result line and in {@code serve}'s {@code veracity} object
     * (Reasoning Court's {@code candidates}, which reports and judge scenarios read); every other detail goes under
     * {@link #FIELD}, so no method's detail can replace a field the kernel writes.
     */
    public static final java.util.Set<String> OWN_FIELDS = java.util.Set.of("candidates");
    /** The object a result line and {@code serve}'s {@code veracity} object keep the other details in. */
    public static final String FIELD = "details";

    /**
     * Writes the details into a result line or {@code serve}'s {@code veracity} object, in order: one named in
     * {@link #OWN_FIELDS} under its name, the others under its name in the {@link #FIELD} object (created when there
     * is one). The one rule every writer follows, so {@link DetailKey#read} finds a detail in the same place in both.
     */
    public void writeTo(ObjectNode object) {
        values.forEach((k, v) -> {
            com.fasterxml.jackson.databind.JsonNode json = write(k, v);
            if (OWN_FIELDS.contains(k.name())) {
                object.set(k.name(), json);
            } else {
                object.withObjectProperty(FIELD).set(k.name(), json);
            }
        });
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
