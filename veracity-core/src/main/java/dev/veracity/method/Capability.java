package dev.veracity.method;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Something a method needs from the runner besides the question and the model: documents, a retriever, a page store,
 * an embedder, a second model ({@link ModelRole}). A method declares its needs once, in its {@link MethodSpec}; the
 * runners read the declaration (give documents, open an index, load an embedder, bind a model) and refuse a method
 * whose need they cannot meet, in one line, before any model call. A plug-in that needs something of its own
 * implements this interface with a key of its own; no runner here provides such a need, so the method is refused
 * until one does.
 */
public interface Capability {

    /** The documents of the question ({@link dev.veracity.qa.QaItem#documents()}): the dataset's or an index's. */
    Capability DOCUMENTS = Standard.DOCUMENTS;
    /** A retriever to search with ({@link MethodContext#retriever()}; the runner then needs an index). */
    Capability RETRIEVER = Standard.RETRIEVER;
    /** A Wikipedia of pages its agents act in ({@link MethodContext#pages()}, {@code --pages DIR}); optional. */
    Capability PAGES = Standard.PAGES;
    /** An embedder ({@link MethodContext#embedder()}; the runner then loads one). */
    Capability EMBEDDER = Standard.EMBEDDER;

    /** A stable key, shown by {@code methods} and in errors: {@code documents}, {@code model:proxy}, ... */
    String key();

    /** One line: what the method does with it. */
    String description();

    /** The needs the runners here know how to meet. */
    enum Standard implements Capability {
        /**
         * The runner gives a method that reads them the dataset's own passages or passages retrieved from an index, and
         * refuses to start it on a dataset without passages when no index is given; a method without this need (closed
         * book) never receives documents, not even the dataset's.
         */
        DOCUMENTS("documents", "the question's documents (the dataset's, or retrieved with --index)"),
        /** The runner needs an index ({@code --index DIR}). */
        RETRIEVER("retriever", "searches an index (--index DIR)"),
        /**
         * Given a page store, such a method needs no documents from the dataset; without one it reads the question's
         * own paragraphs.
         */
        PAGES("pages", "its agents act in a Wikipedia of pages (--pages DIR), else in the question's paragraphs"),
        /** The runner loads one (loading costs seconds, so only for methods that declare it). */
        EMBEDDER("embedder", "compares texts by embedding (bge-small in process, or --embedder URL)");

        private final String key;
        private final String description;

        Standard(String key, String description) {
            this.key = key;
            this.description = description;
        }

        @Override
        public String key() {
            return key;
        }

        @Override
        public String description() {
            return description;
        }
    }

    /** Whether a runner here can meet the need: the standard ones and any model role (unbound, it is the LLM). */
    static boolean provided(Capability need) {
        return need instanceof Standard || need instanceof ModelRole;
    }

    /**
     * Refuses a method that needs what no runner here provides: an IllegalArgumentException of one line naming the
     * method, each such need and what to do. Front ends call it before any model call.
     */
    static void requireProvided(MethodSpec method) {
        List<Capability> missing = new ArrayList<>();
        for (Capability c : method.needs()) {
            if (!provided(c)) {
                missing.add(c);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("method " + method.name() + " needs " + missing.stream()
                    .map(c -> c.key() + " (" + c.description() + ")").collect(Collectors.joining(", "))
                    + ", which no runner here provides; run it with the plug-in that provides "
                    + (missing.size() == 1 ? "it" : "them") + ", or pick another method (./veracity methods)");
        }
    }

    /** The keys, comma-separated, or {@code none}. */
    static String keys(Collection<? extends Capability> needs) {
        return needs.isEmpty() ? "none" : needs.stream().map(Capability::key).collect(Collectors.joining(", "));
    }

    /** Checks a key: non-blank, no spaces or commas (it is shown in lists). */
    static String checkKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isBlank() || key.chars().anyMatch(ch -> Character.isWhitespace(ch) || ch == ',')) {
            throw new IllegalArgumentException("a capability's key is one word, was '" + key + "'");
        }
        return key;
    }
}
