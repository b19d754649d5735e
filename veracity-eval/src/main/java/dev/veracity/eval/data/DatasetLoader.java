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
     * The items of the file, read lazily one record at a time ({@code .bz2}/{@code .gz} decompressed by name), each
     * record with its gold answers ({@link GoldFields#REQUIRED}): for runs that score answers or use them as labels.
     * The stream holds the file open: close it (try-with-resources). Any problem with the file is a
     * {@link DatasetException} naming the file and the line or element.
     */
    default Stream<QaItem> stream(Path file) {
        return stream(file, GoldFields.REQUIRED);
    }

    /**
     * The items of the file as {@link #stream(Path)} reads them; with {@link GoldFields#OPTIONAL} a record without its
     * gold answers is read too, with none (an unlabelled test split whose documents are indexed).
     */
    Stream<QaItem> stream(Path file, GoldFields gold);

    /** All items of the file, read into memory (for small files and tests). */
    default List<QaItem> load(Path file) {
        try (Stream<QaItem> items = stream(file)) {
            return items.toList();
        }
    }
}
