package dev.veracity.eval.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/**
 * One record of a dataset file (a JSONL line, a JSON array element, a TSV row as an object of strings) with where it
 * is, so that every problem found in it can name the file and the place.
 *
 * @param file  the file it came from
 * @param where the place for messages: a 1-based line number ("17") or "element 3"
 * @param index the 0-based position used for stable fallback ids: the line for JSONL, the element for JSON arrays,
 *              the data row (header not counted) for TSV
 * @param node  the record as parsed
 */
public record Record(Path file, String where, long index, JsonNode node) {

    /** Typed access to the record's top-level fields. */
    public Fields fields() {
        return new Fields(this, node, "");
    }

    /** An error at this record. */
    public DatasetException error(String problem) {
        return new DatasetException(file, where, problem);
    }

    /** The id to use when the dataset gives none: {@code <dataset>-<index>}. */
    public String fallbackId(String dataset) {
        return dataset + "-" + index;
    }
}
