package dev.veracity.plugin;

import dev.veracity.method.QaMethod;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Contributes answering methods (a service: list the implementation in
 * {@code META-INF/services/dev.veracity.plugin.MethodProvider}). Each method declares its options, prompts and needs
 * itself ({@link QaMethod#spec()}); the provider only names and makes them. The papers' methods and the baselines are
 * contributed the same way.
 */
public interface MethodProvider {

    /**
     * One method by its command-line name.
     *
     * @param name   the name on the command line ({@code eval --method NAME}), unique over every provider
     * @param create makes the method (cheap: the registry makes one to read its declaration)
     */
    record Entry(String name, Supplier<QaMethod> create) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(create, "create");
        }
    }

    /** The methods, in the order {@code ./veracity methods} lists them. */
    List<Entry> methods();
}
