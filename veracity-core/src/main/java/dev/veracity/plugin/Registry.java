package dev.veracity.plugin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The entries every provider of one service contributes, by name, read again when the plug-in folder changes
 * ({@link Plugins#generation()}). Two providers contributing one name is an error naming both: a plug-in cannot
 * silently replace a method (or a dataset, a reward) that a run's numbers were made with.
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

    private record Snapshot<E>(int generation, Map<String, E> byName) {
    }

    /**
     * @param service the provider interface
     * @param entries what one provider contributes
     * @param name    an entry's name
     * @param what    what an entry is, for errors ("method", "dataset", ...)
     */
    public Registry(Class<P> service, Function<P, List<E>> entries, Function<E, String> name, String what) {
        this.service = service;
        this.entries = entries;
        this.name = name;
        this.what = what;
    }

    /** The entries by name, in listing order. */
    public Map<String, E> byName() {
        Snapshot<E> s = snapshot;
        int g = Plugins.generation();
        if (s == null || s.generation() != g) {
            s = new Snapshot<>(g, read());
            snapshot = s;
        }
        return s.byName();
    }

    private Map<String, E> read() {
        Map<String, E> out = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        for (P provider : Plugins.load(service)) {
            List<E> contributed;
            try {
                contributed = entries.apply(provider);
            } catch (LinkageError | RuntimeException ex) { // typically a jar built against another Veracity
                throw new IllegalStateException("the " + what + "s of " + provider.getClass().getName() + " could not be"
                        + " read (" + ex + "); rebuild the plug-in against this Veracity or take it out of the plug-in"
                        + " folder", ex);
            }
            for (E e : contributed) {
                String n = name.apply(e);
                String by = provider.getClass().getName();
                String before = from.putIfAbsent(n, by);
                if (before != null) {
                    throw new IllegalStateException("two " + what + "s named '" + n + "': one from " + before + ", one from "
                            + by + "; rename one of them (a " + what + "'s name must be unique)");
                }
                out.put(n, e);
            }
        }
        return Collections.unmodifiableMap(out);
    }
}
