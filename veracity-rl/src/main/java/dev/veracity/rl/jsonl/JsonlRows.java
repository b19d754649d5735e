package dev.veracity.rl.jsonl;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a JSONL file one object at a time, with its line number. Blank lines are skipped (they keep their number);
 * a UTF-8 byte order mark on the first line is ignored. A line that is not one JSON object (trailing content and
 * duplicate keys included) is a {@link BadInputException} naming the file and line. Streaming: one line in memory at
 * a time, so a command can read a file twice (check everything, then process) without holding it.
 */
public final class JsonlRows {

    /** Strict: a line holds exactly one value, and a key appears once (a duplicate would silently win). */
    public static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** What to do with each row. */
    @FunctionalInterface
    public interface RowHandler {
        void row(long line, ObjectNode row);
    }

    private JsonlRows() {
    }

    /** Calls {@code handler} for each object in file order; stops at the first bad line. */
    public static void forEach(Path file, RowHandler handler) {
        if (!Files.isRegularFile(file)) {
            throw new BadInputException(file + ": no such file");
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long number = 0;
            while ((line = r.readLine()) != null) {
                number++;
                if (number == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                if (line.isBlank()) {
                    continue;
                }
                handler.row(number, parse(file, number, line));
            }
        } catch (CharacterCodingException e) {
            throw new BadInputException(file + ": not valid UTF-8", e);
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
    }

    private static ObjectNode parse(Path file, long number, String line) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JacksonException e) {
            throw BadInputException.at(file, number, "not JSON (" + e.getOriginalMessage() + ")");
        }
        if (node == null || !node.isObject()) {
            throw BadInputException.at(file, number, "expected a JSON object");
        }
        return (ObjectNode) node;
    }
}
