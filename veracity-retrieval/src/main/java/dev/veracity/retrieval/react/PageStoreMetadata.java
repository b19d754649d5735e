package dev.veracity.retrieval.react;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What a page store on disk holds, written beside Lucene's files as {@value #FILE}: it marks the folder as a page
 * store (a retrieval index is refused with a message, not read as pages) and lets a run record which pages its agents
 * read.
 *
 * @param pages       number of pages
 * @param format      the source's format ({@link PageFormat#cliName()})
 * @param source      the file the pages were read from
 * @param pagesSha256 SHA-256 (hex) of the pages in the order added, each as {@code title \n sentences joined by \t \n}
 *                    in UTF-8: the same pages give the same checksum whatever the file's compression
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PageStoreMetadata(long pages, String format, String source, String pagesSha256) {

    public static final String FILE = "veracity-pages.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    void write(Path dir) throws IOException {
        JSON.writerWithDefaultPrettyPrinter().writeValue(dir.resolve(FILE).toFile(), this);
    }

    /** Reads the metadata of a page store folder; one line saying how to build one when it is not a page store. */
    public static PageStoreMetadata read(Path dir) throws IOException {
        Path f = dir.resolve(FILE);
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "no page store here: build one with ./veracity index"
                    + " --pages --corpus FILE --format FORMAT --out " + dir);
        }
        if (!Files.isRegularFile(f)) {
            throw new NoSuchFileException(dir.toString(), null, "not a page store (no " + FILE + "): build one with"
                    + " ./veracity index --pages --corpus FILE --format FORMAT --out " + dir);
        }
        return JSON.readValue(f.toFile(), PageStoreMetadata.class);
    }
}
