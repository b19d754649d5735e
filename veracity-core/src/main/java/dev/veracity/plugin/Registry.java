package dev.veracity.plugin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The entries every provider of one service contributes, by name, read again when the plug-in folder changes
 * ({@link Plugins#generation()}). Two providers contributing one name is an error naming both: a plug-in cannot
 * silently replace a method (or a dataset, a reward) that a run's numbers were made with.
 *
 * <p>An entry may also be known by aliases (a dataset's {@code nq} for {@code nq-open}), and names may be compared
 * through a key (case-insensitive, say): {@link #find} takes a name or an alias, and a name or alias that two
 * entries claim, compared by key, is the same error.
 *
 * @param <P> the provider service
 * @param <E> one entry
 */
public final class Registry<P, E> {

    private final Class<P> service;
    private final Function<P, List<E>> entries;
    private final Function<E, String> name;
    private final String what;
    private volatile Snapshot<E> snapshot;

    private final Function<E, List<String>> aliases;
    private final UnaryOperator<String> key;

    /**
     * @param byName the entries by name, in listing order
     * @param names  every name and alias, by key, to its entry's name
     */
    private record Snapshot<E>(int generation, Map<String, E> byName, Map<String, String> names) {
    }

    /**
     * A registry whose entries are known by their names exactly.
     *
     * @param service the provider interface
     * @param entries what one provider contributes
     * @param name    an entry's name
     * @param what    what an entry is, for errors ("method", "dataset", ...)
     */
    public Registry(Class<P> service, Function<P, List<E>> entries, Function<E, String> name, String what) {
        this(service, entries, name, e -> List.of(), n -> n, what);
    }

    /**
     * A registry whose entries are known by their names and aliases, compared by a key.
     *
     * @param aliases an entry's other names
     * @param key     what names are compared by (e.g. lower case); applied to names, aliases and looked-up names
     */
    public Registry(Class<P> service, Function<P, List<E>> entries, Function<E, String> name,
                    Function<E, List<String>> aliases, UnaryOperator<String> key, String what) {
        this.service = service;
        this.entries = entries;
        this.name = name;
        this.aliases = aliases;
        this.key = key;
        this.what = what;
    }

    /** The entries by name, in listing order. */
    public Map<String, E> byName() {
        return snapshot().byName();
    }

    /** The entry with this name or alias (compared by key), or null when none has it. */
    public E find(String nameOrAlias) {
        Snapshot<E> s = snapshot();
        String canonical = s.names().get(key.apply(nameOrAlias));
        return canonical == null ? null : s.byName().get(canonical);
    }

    /** Every alias (by key) with its entry's name, in listing order: {@code nq=nq-open}, for messages. */
    public Map<String, String> aliases() {
        Map<String, String> out = new LinkedHashMap<>();
        snapshot().names().forEach((k, n) -> {
            if (!k.equals(key.apply(n))) {
                out.put(k, n);
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /**
     * "did you mean 'x'? " for a name no entry has: the names and aliases (by key) a few edits away, for the one-line
     * error of an unknown name; "" when none is near.
     */
    public String didYouMean(String typed) {
        return NearestNames.didYouMean(typed, snapshot().names().keySet());
    }

    private Snapshot<E> snapshot() {
        Snapshot<E> s = snapshot;
        int g = Plugins.generation();
        if (s == null || s.generation() != g) {
            s = read(g);
            snapshot = s;
        }
        return s;
    }

    private Snapshot<E> read(int generation) {
        Map<String, E> out = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        for (P provider : Plugins.load(service)) {
            List<E> contributed;
            List<List<String>> aliasesOf = new java.util.ArrayList<>();
            try {
                contributed = entries.apply(provider);
                for (E e : contributed) {
                    aliasesOf.add(aliases.apply(e));
                }
            } catch (LinkageError | RuntimeException ex) { // typically a jar built against another Veracity
                throw new IllegalStateException("the " + what + "s of " + provider.getClass().getName() + " could not be"
                        + " read (" + ex + "); rebuild the plug-in against this Veracity or take it out of the plug-in"
                        + " folder", ex);
            }
            String by = provider.getClass().getName();
            for (int i = 0; i < contributed.size(); i++) {
                E e = contributed.get(i);
                String n = name.apply(e);
                for (String claimed : java.util.stream.Stream.concat(java.util.stream.Stream.of(n),
                        aliasesOf.get(i).stream()).toList()) {
                    String before = from.putIfAbsent(key.apply(claimed), by);
                    if (before != null) {
                        throw new IllegalStateException("two " + what + "s named '" + claimed + "': one from " + before
                                + ", one from " + by + "; rename one of them (a " + what + "'s name"
                                + (aliasesOf.get(i).isEmpty() ? "" : " and aliases") + " must be unique)");
                    }
                    names.put(key.apply(claimed), n);
                }
                out.put(n, e);
            }
        }
        return new Snapshot<>(generation, Collections.unmodifiableMap(out), Collections.unmodifiableMap(names));
    }
}
