package dev.veracity.eval.data;

import dev.veracity.plugin.Plugins;
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
 * reads. The datasets are every {@link DatasetProvider}'s ({@link BuiltInDatasets} first, then the plug-ins'); a name
 * or alias two of them claim is an error naming both.
 */
public final class Datasets {

    /** Every provider's datasets by canonical name, and every name and alias to its canonical name. */
    private record Snapshot(int generation, Map<String, DatasetSpec> specs, Map<String, String> names) {
    }

    private static volatile Snapshot snapshot;

    /** The registry as the plug-ins in use give it, read again when the plug-in folder changes. */
    private static Snapshot registry() {
        Snapshot s = snapshot;
        int g = Plugins.generation();
        if (s == null || s.generation() != g) {
            Map<String, DatasetSpec> specs = new LinkedHashMap<>();
            Map<String, String> names = new LinkedHashMap<>();
            Map<String, String> from = new LinkedHashMap<>();
            for (DatasetProvider p : Plugins.load(DatasetProvider.class)) {
                for (DatasetSpec d : p.datasets()) {
                    for (String n : java.util.stream.Stream.concat(java.util.stream.Stream.of(d.name()),
                            d.aliases().stream()).toList()) {
                        String before = from.putIfAbsent(key(n), p.getClass().getName());
                        if (before != null) {
                            throw new IllegalStateException("two datasets named '" + n + "': one from " + before
                                    + ", one from " + p.getClass().getName() + "; rename one of them (a dataset's name"
                                    + " and aliases must be unique)");
                        }
                        names.put(key(n), d.name());
                    }
                    specs.put(d.name(), d);
                }
            }
            s = new Snapshot(g, java.util.Collections.unmodifiableMap(specs), java.util.Collections.unmodifiableMap(names));
            snapshot = s;
        }
        return s;
    }

    private static String key(String name) {
        return name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private Datasets() {
    }

    /** The declaration of a dataset by name or alias; IllegalArgumentException listing the names when unknown. */
    public static DatasetSpec spec(String name) {
        Snapshot r = registry();
        String canonical = r.names().get(key(name));
        if (canonical == null) {
            throw new IllegalArgumentException("unknown dataset \"" + name + "\"; "
                    + dev.veracity.plugin.NearestNames.didYouMean(name, r.names().keySet()) + "known: " + String.join(", ", names())
                    + " (aliases: " + aliases() + ")");
        }
        return r.specs().get(canonical);
    }

    /** The declaration of a dataset by name or alias, or null when unknown. */
    static DatasetSpec find(String name) {
        Snapshot r = registry();
        String canonical = r.names().get(key(name));
        return canonical == null ? null : r.specs().get(canonical);
    }

    /** Every dataset's declaration, in a fixed order. */
    public static List<DatasetSpec> specs() {
        return List.copyOf(registry().specs().values());
    }

    /** The loader for a dataset name or alias; IllegalArgumentException listing the names when unknown. */
    public static DatasetLoader byName(String name) {
        return spec(name).loader().get();
    }

    /** The canonical names, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(registry().specs().keySet());
    }

    /** Every alias with its dataset, e.g. {@code nq=nq-open}. */
    private static String aliases() {
        return registry().names().entrySet().stream().filter(e -> !e.getKey().equals(e.getValue()))
                .map(e -> e.getKey() + "=" + e.getValue()).collect(java.util.stream.Collectors.joining(", "));
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
