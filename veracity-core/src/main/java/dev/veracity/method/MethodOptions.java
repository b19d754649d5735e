package dev.veracity.method;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A method's options after {@link MethodSpec#resolve(Map)}: every declared option with a default present, each
 * value already checked against its type, so the getters cannot fail on a value (only on a name the method did
 * not declare, a programming error).
 *
 * @param values option name to canonical value, in declaration order
 */
public record MethodOptions(Map<String, String> values) {

    public MethodOptions {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public String string(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalStateException("option " + name + " is not declared or has no value");
        }
        return v;
    }

    public int intValue(String name) {
        return Integer.parseInt(string(name));
    }

    public double doubleValue(String name) {
        return Double.parseDouble(string(name));
    }

    /** A list option's numbers ({@code ints}, {@code decimals}), empty when none was given. */
    public java.util.List<Double> numbers(String name) {
        String v = string(name);
        return v.isEmpty() ? java.util.List.of()
                : java.util.Arrays.stream(v.split(",")).map(Double::valueOf).toList();
    }

    /** A list option's integers, empty when none was given. */
    public java.util.List<Long> longs(String name) {
        String v = string(name);
        return v.isEmpty() ? java.util.List.of() : java.util.Arrays.stream(v.split(",")).map(Long::valueOf).toList();
    }

    public boolean bool(String name) {
        return Boolean.parseBoolean(string(name));
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
