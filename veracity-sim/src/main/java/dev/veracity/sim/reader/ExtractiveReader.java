package dev.veracity.sim.reader;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The simulator's built-in reader (see the package documentation: it measures plumbing, not model quality): the
 * {@link PromptReader}s in their {@linkplain PromptReader#order() order}, the first that recognises a prompt
 * answering it in its role's format.
 */
public final class ExtractiveReader {

    /** What answered a prompt: the reader's name and its answer. */
    public record Read(String reader, String text) {
    }

    private static volatile ExtractiveReader classPath;

    private final List<PromptReader> readers;

    /**
     * These readers, sorted by order then name.
     *
     * @throws IllegalArgumentException when two have one name (naming both classes)
     */
    public ExtractiveReader(Collection<? extends PromptReader> readers) {
        List<PromptReader> sorted = new ArrayList<>(readers);
        sorted.sort(Comparator.comparingInt(PromptReader::order).thenComparing(PromptReader::name));
        Map<String, PromptReader> byName = new HashMap<>();
        for (PromptReader r : sorted) {
            PromptReader before = byName.putIfAbsent(r.name(), r);
            if (before != null) {
                throw new IllegalArgumentException("two simulator readers named '" + r.name() + "': "
                        + before.getClass().getName() + " and " + r.getClass().getName() + "; rename one of them");
            }
        }
        this.readers = List.copyOf(sorted);
    }

    /**
     * The readers {@link ServiceLoader} finds through {@code loader} (the project's own and those of the plug-in jars
     * it sees).
     *
     * @throws IllegalStateException when a listed reader cannot be loaded or made
     */
    public static ExtractiveReader load(ClassLoader loader) {
        List<PromptReader> found = new ArrayList<>();
        try {
            ServiceLoader.load(PromptReader.class, loader).forEach(found::add);
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("a simulator reader could not be loaded: " + e.getMessage()
                    + "; check the META-INF/services/" + PromptReader.class.getName() + " file that lists it", e);
        }
        return new ExtractiveReader(found);
    }

    /** The readers on veracity-sim's own class path, loaded once: the simulator's default. */
    public static ExtractiveReader classPath() {
        ExtractiveReader r = classPath;
        if (r == null) {
            r = load(ExtractiveReader.class.getClassLoader());
            classPath = r;
        }
        return r;
    }

    /** The readers, in the order they are tried. */
    public List<PromptReader> readers() {
        return readers;
    }

    /**
     * Which reader recognised {@code prompt} (for chat, the messages' contents joined) and its answer, or empty when
     * none did. Never throws: a reader that slips is passed over, as if it had not recognised the prompt.
     */
    public Optional<Read> read(String prompt) {
        if (prompt == null || prompt.isEmpty()) {
            return Optional.empty();
        }
        for (PromptReader r : readers) {
            Optional<String> out;
            try {
                out = r.read(prompt);
            } catch (RuntimeException e) {
                continue; // a heuristic slip must not fail the request: the next reader, else the default answer
            }
            if (out != null && out.isPresent()) {
                return Optional.of(new Read(r.name(), out.get()));
            }
        }
        return Optional.empty();
    }

    /** The answer to {@code prompt}, or empty when no reader recognises it. */
    public Optional<String> respond(String prompt) {
        return read(prompt).map(Read::text);
    }
}
