package dev.veracity.method;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a method is, declared once next to it: the command-line name, a one-line description, the paper and
 * section it implements, its typed options and what it needs from the runner ({@link Capability}). {@code eval},
 * {@code methods} (and any other front end) read it.
 *
 * <pre>{@code
 * static final MethodSpec SPEC = new MethodSpec("cot-sc", "CoT with self-consistency", "Reasoning Court", "5.1",
 *         List.of(OptionSpec.integer("k", 21, "samples"))).withNeeds();   // closed book: needs nothing
 * MethodOptions o = SPEC.resolve(Map.of("k", "5"));   // {k=5}; an unknown key or a bad value is an error
 * }</pre>
 *
 * @param name        the name on the command line
 * @param description one line
 * @param paper       the paper it implements (short title)
 * @param section     the paper's section or appendix the implementation follows
 * @param options     its options, in display order
 * @param needs       what it needs from the runner, in display order; {@link Capability#DOCUMENTS} unless declared
 */
public record MethodSpec(String name, String description, String paper, String section, List<OptionSpec> options,
                         Set<Capability> needs) {

    /** A spec that needs the question's documents and nothing else (what most methods read). */
    public MethodSpec(String name, String description, String paper, String section, List<OptionSpec> options) {
        this(name, description, paper, section, options, Set.of(Capability.DOCUMENTS));
    }

    public MethodSpec {
        Objects.requireNonNull(name, "name");
        description = Objects.requireNonNullElse(description, "");
        paper = Objects.requireNonNullElse(paper, "");
        section = Objects.requireNonNullElse(section, "");
        options = options == null ? List.of() : List.copyOf(options);
        if (options.stream().map(OptionSpec::name).distinct().count() != options.size()) {
            throw new IllegalArgumentException("method " + name + " declares an option twice");
        }
        needs = needs == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(needs));
    }

    /** This spec with these needs instead (none: a closed-book method that reads the question alone). */
    public MethodSpec withNeeds(Capability... newNeeds) {
        return withNeeds(List.of(newNeeds));
    }

    /** This spec with these needs instead, in this order. */
    public MethodSpec withNeeds(java.util.Collection<? extends Capability> newNeeds) {
        return new MethodSpec(name, description, paper, section, options, new LinkedHashSet<>(newNeeds));
    }

    /** Whether it declares the need. */
    public boolean needs(Capability need) {
        return needs.contains(need);
    }

    /** A spec with a name only and no options (methods that declare nothing). */
    public static MethodSpec named(String name) {
        return new MethodSpec(name, "", "", "", List.of());
    }

    /** The option of that name, or null. */
    public OptionSpec option(String key) {
        for (OptionSpec o : options) {
            if (o.name().equals(key)) {
                return o;
            }
        }
        return null;
    }

    /**
     * Resolved options as JSON records them (run.json, serve's {@code veracity.options}): each value typed as its
     * declaration says ({@link OptionSpec#typed}), in the given order; a key not declared, or a value its declaration
     * does not read, stays text.
     */
    public Map<String, Object> typed(Map<String, String> resolved) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        resolved.forEach((k, v) -> {
            OptionSpec o = option(k);
            Object typed = v;
            if (o != null) {
                try {
                    typed = o.typed(v);
                } catch (IllegalArgumentException notItsType) {
                    typed = v;
                }
            }
            out.put(k, typed);
        });
        return out;
    }

    /** The paper and section, e.g. {@code MADAM-RAG, Section 4}. */
    public String source() {
        return section.isEmpty() ? paper : paper.isEmpty() ? section : paper + ", " + section;
    }

    /** One line: {@code rounds=3 (int), history=others (enum(others|aggregator|both))}, or {@code none}. */
    public String optionsLine() {
        return options.isEmpty() ? "none" : options.stream().map(o -> o.withDefault() + " (" + o.typeName() + ")")
                .collect(Collectors.joining(", "));
    }

    /**
     * The given options checked and completed: every declared option with a default is present, values in their
     * canonical spelling, in declaration order. An unknown key or a value of the wrong type is an
     * IllegalArgumentException of one line that ends with this method's options and their defaults. Resolving a
     * resolved map gives it back.
     */
    public MethodOptions resolve(Map<String, String> given) {
        Map<String, String> in = given == null ? Map.of() : given;
        for (String key : in.keySet()) {
            if (option(key) == null) {
                throw new IllegalArgumentException("unknown option '" + key + "' for method " + name + "; its options: "
                        + optionsLine());
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (OptionSpec o : options) {
            String raw = in.get(o.name());
            if (raw != null) {
                try {
                    out.put(o.name(), o.parse(raw));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(e.getMessage() + "; " + name + "'s options: " + optionsLine(), e);
                }
            } else if (o.defaultValue() != null) {
                out.put(o.name(), o.defaultValue());
            }
        }
        return new MethodOptions(out);
    }
}
