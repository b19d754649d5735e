package dev.veracity.method;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One typed option of a method ({@code --option name=value}), as the method declares it.
 *
 * @param name         the key on the command line, e.g. {@code rounds}
 * @param type         how the value is read
 * @param values       the accepted values of an {@link Type#ENUM} option, canonical spelling (empty otherwise)
 * @param aliases      other spellings of enum values, alias to canonical value (e.g. {@code agents -> others})
 * @param defaultValue the value when the option is not given, canonical spelling; null when unset means
 *                     something the description explains (the option is then absent from the resolved map)
 * @param description  one line
 */
public record OptionSpec(String name, Type type, List<String> values, Map<String, String> aliases,
                         String defaultValue, String description) {

    /** The value types. */
    public enum Type {
        INT, DOUBLE, BOOLEAN, ENUM, STRING,
        /** A comma-separated list of integers (one per agent, say); empty for none. */
        INTS,
        /** A comma-separated list of finite numbers; empty for none. */
        DECIMALS;

        @Override
        public String toString() {
            return switch (this) {
                case INTS -> "ints (comma-separated)";
                case DECIMALS -> "numbers (comma-separated)";
                default -> name().toLowerCase(Locale.ROOT);
            };
        }
    }

    public OptionSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        values = values == null ? List.of() : List.copyOf(values);
        aliases = aliases == null ? Map.of() : Map.copyOf(aliases);
        description = Objects.requireNonNullElse(description, "");
        if (type == Type.ENUM && values.isEmpty()) {
            throw new IllegalArgumentException("enum option " + name + " declares no values");
        }
        if (defaultValue != null) {
            defaultValue = canonical(name, type, values, aliases, defaultValue);
        }
    }

    public static OptionSpec integer(String name, int defaultValue, String description) {
        return new OptionSpec(name, Type.INT, List.of(), Map.of(), Integer.toString(defaultValue), description);
    }

    public static OptionSpec decimal(String name, double defaultValue, String description) {
        return new OptionSpec(name, Type.DOUBLE, List.of(), Map.of(), Double.toString(defaultValue), description);
    }

    /** A decimal option with no default: absent from the resolved options unless given. */
    public static OptionSpec optionalDecimal(String name, String description) {
        return new OptionSpec(name, Type.DOUBLE, List.of(), Map.of(), null, description);
    }

    public static OptionSpec bool(String name, boolean defaultValue, String description) {
        return new OptionSpec(name, Type.BOOLEAN, List.of(), Map.of(), Boolean.toString(defaultValue), description);
    }

    /** An enum option; {@code defaultValue} null for an option whose absence means something (see its description). */
    public static OptionSpec choice(String name, String defaultValue, String description, String... values) {
        return new OptionSpec(name, Type.ENUM, List.of(values), Map.of(), defaultValue, description);
    }

    /** A comma-separated list of integers, empty by default. */
    public static OptionSpec ints(String name, String description) {
        return new OptionSpec(name, Type.INTS, List.of(), Map.of(), "", description);
    }

    /** A comma-separated list of numbers, empty by default. */
    public static OptionSpec decimals(String name, String description) {
        return new OptionSpec(name, Type.DECIMALS, List.of(), Map.of(), "", description);
    }

    public static OptionSpec string(String name, String defaultValue, String description) {
        return new OptionSpec(name, Type.STRING, List.of(), Map.of(), defaultValue, description);
    }

    /** This option with another spelling of one of its enum values. */
    public OptionSpec withAlias(String alias, String value) {
        Map<String, String> a = new LinkedHashMap<>(aliases);
        a.put(alias, value);
        return new OptionSpec(name, type, values, a, defaultValue, description);
    }

    /** The type as shown to users: {@code int}, {@code enum(report|abstain|regenerate)}, ... */
    public String typeName() {
        return type == Type.ENUM ? "enum(" + String.join("|", values) + ")" : type.toString();
    }

    /** {@code name=default}, or {@code name=(unset)}. */
    public String withDefault() {
        return name + "=" + (defaultValue == null ? "(unset)" : defaultValue);
    }

    /**
     * A canonical value ({@link #parse}) as the JSON a run records it in: an int or a number as a number, a boolean as
     * a boolean, a list of them as an array, an enum or a string as text. {@code run.json} keeps its settings typed.
     */
    public Object typed(String canonical) {
        if (canonical == null) {
            return null;
        }
        return switch (type) {
            case INT -> Integer.valueOf(canonical);
            case DOUBLE -> Double.valueOf(canonical);
            case BOOLEAN -> Boolean.valueOf(canonical);
            case INTS -> canonical.isEmpty() ? List.of()
                    : java.util.Arrays.stream(canonical.split(",")).map(Long::valueOf).toList();
            case DECIMALS -> canonical.isEmpty() ? List.of()
                    : java.util.Arrays.stream(canonical.split(",")).map(Double::valueOf).toList();
            case ENUM, STRING -> canonical;
        };
    }

    /**
     * The value in its canonical spelling (trimmed; booleans {@code true}/{@code false}; enum values lower-case, aliases
     * replaced); an IllegalArgumentException that names the option, its type and the value when it is not one.
     */
    public String parse(String raw) {
        return canonical(name, type, values, aliases, raw);
    }

    private static String canonical(String name, Type type, List<String> values, Map<String, String> aliases,
                                    String raw) {
        String v = raw == null ? "" : raw.strip();
        switch (type) {
            case INT -> {
                try {
                    return Integer.toString(Integer.parseInt(v));
                } catch (NumberFormatException e) {
                    throw bad(name, "an int", raw);
                }
            }
            case DOUBLE -> {
                try {
                    double d = Double.parseDouble(v);
                    if (!Double.isFinite(d)) {
                        throw bad(name, "a finite number", raw);
                    }
                    return Double.toString(d);
                } catch (NumberFormatException e) {
                    throw bad(name, "a number", raw);
                }
            }
            case BOOLEAN -> {
                return switch (v.toLowerCase(Locale.ROOT)) {
                    case "true", "yes", "on", "1" -> "true";
                    case "false", "no", "off", "0" -> "false";
                    default -> throw bad(name, "true or false", raw);
                };
            }
            case INTS, DECIMALS -> {
                if (v.isEmpty()) {
                    return "";
                }
                List<String> out = new java.util.ArrayList<>();
                for (String part : v.split(",", -1)) {
                    String e = part.strip();
                    try {
                        if (type == Type.INTS) {
                            out.add(Long.toString(Long.parseLong(e)));
                        } else {
                            double d = Double.parseDouble(e);
                            if (!Double.isFinite(d)) {
                                throw new NumberFormatException();
                            }
                            out.add(Double.toString(d));
                        }
                    } catch (NumberFormatException ex) {
                        throw bad(name, type == Type.INTS ? "integers separated by commas" : "numbers separated by commas",
                                raw);
                    }
                }
                return String.join(",", out);
            }
            case ENUM -> {
                String lower = v.toLowerCase(Locale.ROOT);
                String c = aliases.getOrDefault(lower, lower);
                if (!values.contains(c)) {
                    throw bad(name, "one of " + String.join(", ", values), raw);
                }
                return c;
            }
            default -> {
                return v;
            }
        }
    }

    private static IllegalArgumentException bad(String name, String what, String raw) {
        return new IllegalArgumentException("option " + name + " must be " + what + ", was '" + raw + "'");
    }
}
