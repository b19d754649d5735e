package dev.veracity.eval.data;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where benchmark files are kept: {@code $VERACITY_DATA/<dataset>/<file>}, by default
 * {@code ~/.cache/veracity/datasets/<dataset>/<file>} ({@code veracity datasets fetch} writes there). A checkout
 * with the project's sample folder beside it ({@code shared/data/<dataset>/<file>}, looked for from the working
 * folder upwards) is read too, so the bundled samples count as present.
 */
public final class DatasetCache {

    /** The environment variable that moves the cache. */
    public static final String ENV = "VERACITY_DATA";

    private final Path root;
    private final Path workingDir;

    /** The cache at {@code root}, looking for sample folders from {@code workingDir} upwards (null: none). */
    public DatasetCache(Path root, Path workingDir) {
        this.root = root.toAbsolutePath().normalize();
        this.workingDir = workingDir;
    }

    /** The cache the environment names ({@code VERACITY_DATA}, else {@code ~/.cache/veracity/datasets}). */
    public static DatasetCache fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    static DatasetCache fromEnvironment(Map<String, String> env) {
        String dir = env.get(ENV);
        Path root = dir != null && !dir.isBlank() ? Path.of(dir)
                : Path.of(System.getProperty("user.home"), ".cache", "veracity", "datasets");
        return new DatasetCache(root, Path.of("").toAbsolutePath());
    }

    public Path root() {
        return root;
    }

    /** Where {@code fetch} puts a dataset's file. */
    public Path target(DatasetSpec dataset, Download file) {
        return root.resolve(dataset.name()).resolve(file.file());
    }

    /** A file present for the dataset: the cache's copy, else a sample folder's; the first declared file first. */
    public Optional<Path> find(DatasetSpec dataset) {
        for (Download d : dataset.downloads()) {
            Optional<Path> p = find(dataset, d);
            if (p.isPresent()) {
                return p;
            }
        }
        return Optional.empty();
    }

    /** Where this file of the dataset is present, if it is. */
    public Optional<Path> find(DatasetSpec dataset, Download file) {
        Path cached = target(dataset, file);
        if (Files.isRegularFile(cached)) {
            return Optional.of(cached);
        }
        for (Path dir = workingDir; dir != null; dir = dir.getParent()) {
            for (Path c : List.of(dir.resolve("shared/data"), dir.resolve("../shared/data"))) {
                Path f = c.resolve(dataset.name()).resolve(file.file());
                if (Files.isRegularFile(f)) {
                    return Optional.of(f.normalize());
                }
            }
        }
        return Optional.empty();
    }

    /** Every declared file of the dataset that is present, with where. */
    public List<Path> present(DatasetSpec dataset) {
        List<Path> out = new ArrayList<>();
        dataset.downloads().forEach(d -> find(dataset, d).ifPresent(out::add));
        return out;
    }
}
