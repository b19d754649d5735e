package dev.veracity.eval.data;

import dev.veracity.plugin.Registry;
import dev.veracity.qa.QaItem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The registry of datasets: every name and alias, its loader, its official metrics, whether answers are sets and
 * whether records carry their own documents ({@link DatasetSpec}). {@link dev.veracity.eval.run.DatasetProfile}
 * reads the metrics from here, so an alias is scored as its dataset.
 *
 * <pre>{@code
 * try (Stream<QaItem> items = Datasets.stream("crag", Path.of("dev_data.jsonl.bz2"))) { ... }
 * List<QaItem> all = Datasets.byName("ramdocs").load(Path.of("RAMDocs_test.jsonl"));
 * }</pre>
 *
 * Names are case-insensitive, {@code _} and {@code -} the same. Each loader's class comment lists the fields it
 * reads. The datasets are every {@link DatasetProvider}'s ({@link BuiltInDatasets} first, then the plug-ins'), read
 * through the plug-ins' one {@link Registry} with the datasets' aliases; a name or alias two of them claim is an error
 * naming both.
 */
public final class Datasets {

    /** Every provider's datasets, known by name and alias (case-insensitive, {@code _} and {@code -} the same). */
    private static final Registry<DatasetProvider, DatasetSpec> REGISTRY = new Registry<>(DatasetProvider.class,
            DatasetProvider::datasets, DatasetSpec::name, DatasetSpec::aliases, Datasets::key, "dataset");

    private static String key(String name) {
        return name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private Datasets() {
    }

    /** The declaration of a dataset by name or alias; IllegalArgumentException listing the names when unknown. */
    public static DatasetSpec spec(String name) {
        DatasetSpec spec = REGISTRY.find(name);
        if (spec == null) {
            throw new IllegalArgumentException("unknown dataset \"" + name + "\"; " + REGISTRY.didYouMean(name) + "known: "
                    + String.join(", ", names()) + " (aliases: " + aliases() + ")");
        }
        return spec;
    }

    /** The declaration of a dataset by name or alias, or null when unknown. */
    static DatasetSpec find(String name) {
        return REGISTRY.find(name);
    }

    /** Every dataset's declaration, in a fixed order. */
    public static List<DatasetSpec> specs() {
        return List.copyOf(REGISTRY.byName().values());
    }

    /** The loader for a dataset name or alias; IllegalArgumentException listing the names when unknown. */
    public static DatasetLoader byName(String name) {
        return spec(name).loader().get();
    }

    /** The canonical names, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.byName().keySet());
    }

    /** Every alias with its dataset, e.g. {@code nq=nq-open}. */
    private static String aliases() {
        return REGISTRY.aliases().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
    }
    /**
     * The items of a file read by the named dataset's loader, each record with its gold answers (close the stream):
     * for runs that score answers or use them as labels.
     */
    public static Stream<QaItem> stream(String name, Path file) {
        return byName(name).stream(file);
    }

    /**
     * The items of a file read by the named dataset's loader (close the stream); with {@link GoldFields#OPTIONAL}
     * records without gold answers are read too (to index an unlabelled test split's documents).
     */
    public static Stream<QaItem> stream(String name, Path file, GoldFields gold) {
        return byName(name).stream(file, gold);
    }

    /** All items of a file read by the named dataset's loader, each with its gold answers. */
    public static List<QaItem> load(String name, Path file) {
        return byName(name).load(file);
    }
}
