package dev.veracity.retrieval.lucene;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What an index on disk holds, written beside Lucene's files as {@value #FILE}: so that a searcher embeds queries
 * with the model the passages were embedded with.
 *
 * @param passages       number of passages
 * @param embeddingModel the dense model's name, or null for a BM25-only index
 * @param dimension      vector dimension (0 when not dense)
 * @param corpusSha256   SHA-256 (hex) of the passages in the order they were added, each as
 *                       {@code id \t title \t text \n} in UTF-8; null for an index built before checksums. The same
 *                       corpus read the same way gives the same checksum whatever the file format or compression,
 *                       so a run records which passages it retrieved from.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record IndexMetadata(long passages, String embeddingModel, int dimension, String corpusSha256) {

    /** Metadata without a corpus checksum. */
    public IndexMetadata(long passages, String embeddingModel, int dimension) {
        this(passages, embeddingModel, dimension, null);
    }

    public static final String FILE = "veracity-index.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    public boolean dense() {
        return embeddingModel != null;
    }

    void write(Path dir) throws IOException {
        JSON.writerWithDefaultPrettyPrinter().writeValue(dir.resolve(FILE).toFile(), this);
    }

    /** Reads the metadata of an index directory; tells the user to build one when it is missing. */
    public static IndexMetadata read(Path dir) throws IOException {
        Path f = dir.resolve(FILE);
        if (!Files.isRegularFile(f)) {
            throw new NoSuchFileException(dir.toString(), null,
                    "not a Veracity index (no " + FILE + "): build one with ./veracity index --corpus FILE --out " + dir);
        }
        return JSON.readValue(f.toFile(), IndexMetadata.class);
    }
}
