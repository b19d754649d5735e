package dev.veracity.eval.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.veracity.schema.SchemaVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Reads and writes a run's files through their types ({@link ResultLine}, {@link Summary}, {@link RunConfiguration}):
 * every file written carries the current {@code schema_version}; every file read is checked against it
 * ({@link SchemaVersion#check}: none is version 1, a newer one is refused in one line). Fields a reader does not know
 * are ignored, so that a file with the optional fields a later minor change adds still reads.
 */
public final class ResultsJson {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final ObjectWriter INDENTED = JSON.writerWithDefaultPrettyPrinter();

    private ResultsJson() {
    }

    /**
     * Builds now what the first read or write of a run's lines and summary costs (Jackson looks at every field of their
     * types, a few tens of milliseconds in a JVM just started): a run calls it on a thread of its own while its first
     * calls wait on the model, so that the last answer's line, the summary and the closing table do not pay for it
     * after the last call. Jackson keeps what it built for every later reader and writer of these types.
     */
    public static void prepare() {
        try {
            JSON.writerFor(ResultLine.class);
            INDENTED.forType(Summary.class);
            JSON.readerFor(ResultLine.class);
            JSON.readerFor(Summary.class);
        } catch (RuntimeException e) {
            // the read or write itself reports it
        }
    }

    /** A result line as one line of JSON (no newline), with the current schema version. */
    public static String lineText(ResultLine line) {
        try {
            return JSON.writeValueAsString(line.withSchemaVersion(SchemaVersion.CURRENT));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a result line: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A line of {@code results.jsonl}.
     *
     * @param where the file and line, for the message of a newer schema
     * @throws MalformedLine when the text is not a result line (not JSON, or a field of the wrong type)
     * @throws IllegalArgumentException when the line is of a newer schema than this build reads
     */
    public static ResultLine line(String text, Object where) throws MalformedLine {
        ResultLine line;
        try {
            line = JSON.readValue(text, ResultLine.class);
        } catch (JsonProcessingException e) {
            throw new MalformedLine(e.getOriginalMessage().lines().findFirst().orElse("not JSON"));
        }
        if (line == null) {
            throw new MalformedLine("null is not a result line");
        }
        SchemaVersion.check(line.schemaVersion(), where);
        return line;
    }

    /** A line that is not a result line: what was wrong, in one line. */
    public static final class MalformedLine extends Exception {
        public MalformedLine(String message) {
            super(message, null, false, false);
        }
    }

    /** Reads {@code summary.json}. */
    public static Summary summary(Path file) {
        Summary s = read(file, Summary.class);
        SchemaVersion.check(s.schemaVersion(), file);
        return s;
    }

    /** Reads {@code run.json}. */
    public static RunConfiguration runConfiguration(Path file) {
        RunConfiguration c = read(file, RunConfiguration.class);
        SchemaVersion.check(c.schemaVersion(), file);
        return c;
    }

    /** Writes {@code summary.json} atomically, with the current schema version. */
    public static void write(Path file, Summary summary) {
        Summary.Builder b = summary.toBuilder();
        b.schemaVersion = SchemaVersion.CURRENT;
        writeAtomically(file, b.build());
    }

    /** Writes {@code run.json} atomically, with the current schema version. */
    public static void write(Path file, RunConfiguration config) {
        writeAtomically(file, config.withSchemaVersion(SchemaVersion.CURRENT));
    }

    /** The JSON tree of a value as it is written (a test's view, a diff of two configurations). */
    public static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    /** A value of a type from a JSON tree, such as the fields a command gathered. */
    public static <T> T convert(Object value, Class<T> type) {
        return JSON.convertValue(value, type);
    }

    private static <T> T read(Path file, Class<T> type) {
        try {
            T value = JSON.readValue(file.toFile(), type);
            if (value == null) {
                throw new IllegalArgumentException(file + " holds null, not a " + type.getSimpleName());
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not a readable " + type.getSimpleName() + " file ("
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes a run folder's JSON file (indented) through a temporary file moved in place, so that a kill leaves the
     * old file or the new one, never a part of one.
     */
    private static void writeAtomically(Path file, Object value) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, INDENTED.writeValueAsString(value) + "\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
