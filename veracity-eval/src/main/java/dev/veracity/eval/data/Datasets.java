package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The registry of dataset loaders by name.
 *
 * <pre>{@code
 * try (Stream<QaItem> items = Datasets.stream("crag", Path.of("dev_data.jsonl.bz2"))) { ... }
 * List<QaItem> all = Datasets.byName("ramdocs").load(Path.of("RAMDocs_test.jsonl"));
 * }</pre>
 *
 * Names (case-insensitive; {@code _} and {@code -} are the same):
 * {@code ramdocs}, {@code faitheval}, {@code ambigdocs}, {@code hotpotqa}, {@code 2wikimultihopqa}
 * (alias {@code 2wiki}), {@code musique} (all records), {@code musique-answerable} (answerable only),
 * {@code nq-open} (alias {@code nq}), {@code triviaqa}, {@code popqa}, {@code crag} (pages as text),
 * {@code crag-snippets} (snippets only), {@code fever}, {@code ragtruth}. Each loader's class comment lists the
 * fields it reads.
 */
public final class Datasets {

    private static final Map<String, Supplier<DatasetLoader>> LOADERS = new LinkedHashMap<>();
    private static final Map<String, String> ALIASES = Map.of("2wiki", "2wikimultihopqa", "nq", "nq-open",
            "nqopen", "nq-open", "hotpot", "hotpotqa", "musique-ans", "musique-answerable");

    static {
        LOADERS.put("ramdocs", RamDocsLoader::new);
        LOADERS.put("faitheval", FaithEvalLoader::new);
        LOADERS.put("ambigdocs", AmbigDocsLoader::new);
        LOADERS.put("hotpotqa", () -> new HotpotLoader("hotpotqa"));
        LOADERS.put("2wikimultihopqa", () -> new HotpotLoader("2wikimultihopqa"));
        LOADERS.put("musique", () -> new MusiqueLoader("musique", false));
        LOADERS.put("musique-answerable", () -> new MusiqueLoader("musique-answerable", true));
        LOADERS.put("nq-open", NqOpenLoader::new);
        LOADERS.put("triviaqa", TriviaQaLoader::new);
        LOADERS.put("popqa", PopQaLoader::new);
        LOADERS.put("crag", () -> new CragLoader("crag", true));
        LOADERS.put("crag-snippets", () -> new CragLoader("crag-snippets", false));
        LOADERS.put("fever", FeverLoader::new);
        LOADERS.put("ragtruth", RagTruthLoader::new);
    }

    private Datasets() {
    }

    /** The loader for a dataset name; IllegalArgumentException listing the names when unknown. */
    public static DatasetLoader byName(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        key = ALIASES.getOrDefault(key, key);
        Supplier<DatasetLoader> s = LOADERS.get(key);
        if (s == null) {
            throw new IllegalArgumentException("unknown dataset \"" + name + "\"; known: " + names());
        }
        return s.get();
    }

    /** The registered names, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(LOADERS.keySet());
    }

    /** The items of a file read by the named dataset's loader (close the stream). */
    public static Stream<QaItem> stream(String name, Path file) {
        return byName(name).stream(file);
    }

    /** All items of a file read by the named dataset's loader. */
    public static List<QaItem> load(String name, Path file) {
        return byName(name).load(file);
    }
}
