package dev.veracity.eval.data;

import java.nio.file.Path;

/**
 * A dataset file that cannot be read as its format says: the message names the file, the place (a line for JSONL
 * and TSV, an element index for JSON arrays) and what is wrong, e.g.
 * {@code RAMDocs_test.jsonl:17: missing field "question"} or {@code hotpot_dev.json: element 3: invalid JSON: ...}.
 */
public class DatasetException extends RuntimeException {

    private final transient Path file;
    private final String where;

    public DatasetException(Path file, String where, String problem) {
        this(file, where, problem, null);
    }

    public DatasetException(Path file, String where, String problem, Throwable cause) {
        super(message(file, where, problem), cause);
        this.file = file;
        this.where = where == null ? "" : where;
    }

    private static String message(Path file, String where, String problem) {
        String name = file == null ? "<unknown>" : String.valueOf(file.getFileName());
        if (where == null || where.isEmpty()) {
            return name + ": " + problem;
        }
        // Line numbers attach with a colon ("f.jsonl:17"), anything else after a space ("f.json: element 3").
        return where.chars().allMatch(Character::isDigit) ? name + ":" + where + ": " + problem
                : name + ": " + where + ": " + problem;
    }

    /** The file that could not be read (null if unknown). */
    public Path file() {
        return file;
    }

    /** The place in the file: a 1-based line number ("17"), "element 3", or "" for the whole file. */
    public String where() {
        return where;
    }
}
