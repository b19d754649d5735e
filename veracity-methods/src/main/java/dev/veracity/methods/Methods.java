package dev.veracity.methods;

import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.plugin.MethodProvider;
import dev.veracity.plugin.Plugins;
import dev.veracity.plugin.Registry;
import java.util.List;
import java.util.Set;

/**
 * The methods by command-line name: every {@link MethodProvider}'s ({@link Plugins}: the built-in papers and baselines,
 * {@link BuiltInMethods}, then the plug-ins'). Each method declares itself ({@link QaMethod#spec()}: description,
 * paper section, typed options); this registry only lists them, and every front end ({@code eval}, {@code methods},
 * {@code serve}) reads the declarations from here.
 */
public final class Methods {

    private static final Registry<MethodProvider, MethodProvider.Entry> ALL = new Registry<>(MethodProvider.class,
            MethodProvider::methods, MethodProvider.Entry::name, "method");

    private Methods() {
    }

    public static Set<String> names() {
        return ALL.byName().keySet();
    }

    /** Every method's declaration, in listing order. */
    public static List<MethodSpec> specs() {
        return ALL.byName().values().stream().map(e -> e.create().get().spec()).toList();
    }

    /** The declaration of the method of that name; an unknown name is an error that lists the known ones. */
    public static MethodSpec spec(String name) {
        return byName(name).spec();
    }

    /** The method of that name; an unknown name is an error that lists the known ones. */
    public static QaMethod byName(String name) {
        if (name != null && name.contains("+")) {
            // METHOD+march[+abstain]: one pipeline over the method interface (dev.veracity.methods.compose)
            return dev.veracity.methods.compose.Composition.parse(name, Methods::byName);
        }
        MethodProvider.Entry e = name == null ? null : ALL.byName().get(name);
        if (e == null) {
            throw new IllegalArgumentException("unknown method '" + name + "'; "
                    + ALL.didYouMean(name) + "known: " + String.join(", ", names())
                    + " (and METHOD+march[+abstain] to verify any of them)");
        }
        return e.create().get();
    }
}
