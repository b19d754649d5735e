package dev.veracity.schema;

/**
 * The schema version of the files a run writes, one number for all of them ({@code schema_version} in each file, in
 * each line of a JSON-lines file). A change that only adds optional fields keeps it; one that renames, removes or
 * retypes a field raises it. Readers take a file without the field as version 1 (the files written before it existed
 * have version 1's shape) and refuse a newer version, which only a newer Veracity reads.
 */
public final class SchemaVersion {

    /** The version this build writes and reads. */
    public static final int CURRENT = 1;

    /** The field that holds it. */
    public static final String FIELD = "schema_version";

    private SchemaVersion() {
    }

    /**
     * Checks a file's version.
     *
     * @param version the file's {@code schema_version}, or null when it has none (version 1)
     * @param where   the file (and line) for the message
     * @throws IllegalArgumentException when the file is of a newer version than this build reads, or not a version
     */
    public static void check(Integer version, Object where) {
        if (version == null) {
            return;
        }
        if (version < 1) {
            throw new IllegalArgumentException(where + ": schema_version " + version + " is not a version (1 or more)");
        }
        if (version > CURRENT) {
            throw new IllegalArgumentException(where + " has schema_version " + version + ", newer than this Veracity"
                    + " reads (" + CURRENT + "); read it with the Veracity that wrote it, or a newer one");
        }
    }
}
