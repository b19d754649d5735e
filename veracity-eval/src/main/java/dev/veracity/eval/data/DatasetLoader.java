package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads one benchmark's native release file into {@link QaItem}s. Get one with {@link Datasets#byName(String)}.
 *
 * <pre>{@code
 * try (Stream<QaItem> items = Datasets.byName("ramdocs").stream(Path.of("RAMDocs_test.jsonl"))) {
 *     items.forEach(...);
 * }
 * }</pre>
 */
public interface DatasetLoader {

    /** The registry name, e.g. {@code ramdocs}. */
    String name();

    /**
     * The items of the file, read lazily one record at a time ({@code .bz2}/{@code .gz} decompressed by name).
     * The stream holds the file open: close it (try-with-resources). Any problem with the file is a
     * {@link DatasetException} naming the file and the line or element.
     */
    Stream<QaItem> stream(Path file);

    /** All items of the file, read into memory (for small files and tests). */
    default List<QaItem> load(Path file) {
        try (Stream<QaItem> items = stream(file)) {
            return items.toList();
        }
    }
}
