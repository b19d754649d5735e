package dev.veracity.plugin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * Where Veracity's extensions come from: {@link ServiceLoader} over the class path and over the jars of a plug-in
 * folder ({@code --plugins DIR} on the command line, else the environment's {@value #ENV}). Every registry (methods,
 * datasets, rewards, judges, commands) reads its entries from the providers found here, the built-in papers and
 * baselines included, so a plug-in jar adds a method exactly as the five papers add theirs.
 *
 * <p>Providers are listed built-ins first ({@link #order}), then by class name, so that every registry's order is
 * stable. The folder is set once, before the first registry is read; {@link #generation()} tells a registry that
 * caches its entries when it must read them again (tests that point the CLI at another folder in one JVM).
 */
public final class Plugins {

    /** The environment variable naming a plug-in folder when {@code --plugins} is not given. */
    public static final String ENV = "VERACITY_PLUGINS";

    private static final Object LOCK = new Object();
    private static Path folder;
    private static ClassLoader loader;
    private static int generation;

    private Plugins() {
    }

    /**
     * Loads the jars of {@code dir} (every {@code *.jar} directly in it) from now on; null goes back to the class
     * path alone. A folder that does not exist or holds no jar is a one-line error naming it.
     */
    public static void useFolder(Path dir) {
        synchronized (LOCK) {
            folder = dir;
            loader = dir == null ? defaultParent() : open(dir);
            generation++;
        }
    }

    /** The folder in use, or null (the class path alone, or {@value #ENV} when first read). */
    public static Path folder() {
        synchronized (LOCK) {
            loader();
            return folder;
        }
    }

    /** Changes whenever the folder does: a registry that caches what it read compares it. */
    public static int generation() {
        synchronized (LOCK) {
            loader();
            return generation;
        }
    }

    /**
     * Every provider of {@code service}, built-ins first: those that declare {@link Ordered#order()} by it (0 for the
     * project's own), the rest after them by class name.
     *
     * @throws IllegalStateException naming the jar folder when a provider cannot be loaded or made
     */
    public static <T> List<T> load(Class<T> service) {
        ClassLoader l;
        synchronized (LOCK) {
            l = loader();
        }
        List<T> out = new ArrayList<>();
        try {
            ServiceLoader.load(service, l).forEach(out::add);
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("a " + service.getSimpleName() + " could not be loaded"
                    + (folder == null ? "" : " from the plug-ins in " + folder) + ": " + e.getMessage()
                    + "; check the plug-in's META-INF/services file and that it was built against this Veracity", e);
        }
        out.sort(Comparator.comparingInt(Plugins::order).thenComparing(p -> p.getClass().getName()));
        return List.copyOf(out);
    }

    /** A provider's place in the listing: its {@link Ordered#order()}, else after the built-ins. */
    public static int order(Object provider) {
        return provider instanceof Ordered o ? o.order() : Ordered.PLUGIN;
    }

    /** A provider that says where it goes in a registry's listing. */
    public interface Ordered {
        /** The project's own providers. */
        int BUILT_IN = 0;
        /** Plug-ins that do not say. */
        int PLUGIN = 100;

        int order();
    }

    private static ClassLoader loader() {
        if (loader == null) {
            String env = System.getenv(ENV);
            if (env != null && !env.isBlank()) {
                folder = Path.of(env.strip());
                loader = open(folder);
            } else {
                loader = defaultParent();
            }
        }
        return loader;
    }

    private static ClassLoader defaultParent() {
        return Objects.requireNonNullElse(Thread.currentThread().getContextClassLoader(), Plugins.class.getClassLoader());
    }

    private static ClassLoader open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no plug-in folder at " + dir + ": --plugins (or " + ENV + ") names a"
                    + " folder of plug-in jars");
        }
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                jars.add(p.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("cannot read the plug-in folder " + dir + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the plug-in folder " + dir + ": " + e.getMessage(), e);
        }
        if (jars.isEmpty()) {
            throw new IllegalArgumentException("the plug-in folder " + dir + " holds no .jar file: put each plug-in's"
                    + " jar (and the jars it needs beyond Veracity's) there");
        }
        return new URLClassLoader("veracity-plugins", jars.toArray(URL[]::new), Plugins.class.getClassLoader());
    }
}
