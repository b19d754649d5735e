package dev.veracity.rl.export;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.BadInputException;
import dev.veracity.rl.jsonl.JsonlRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * LLaMA-Factory's {@code dataset_info.json} beside the data file: the folder is then a {@code dataset_dir} and the
 * entry's name a {@code dataset} (LLaMA-Factory {@code src/llamafactory/data/parser.py} reads
 * {@code dataset_dir/dataset_info.json} and resolves {@code file_name} in that folder). An existing file (the
 * folder may be LLaMA-Factory's own {@code data/}) keeps its other entries; ours is added or replaced. An existing file
 * that is not a JSON object is refused before anything is written. One mechanism for every writer of LLaMA-Factory
 * data: {@code rl export --format llamafactory} and the C-3PO rollout's seed data.
 */
public final class DatasetInfoFile {

    public static final String NAME = "dataset_info.json";

    private final Path file;
    private final ObjectNode entries;

    private DatasetInfoFile(Path file, ObjectNode entries) {
        this.file = file;
        this.entries = entries;
    }

    /** The file in {@code folder}, read if it exists. */
    public static DatasetInfoFile in(Path folder) {
        Path f = folder.resolve(NAME);
        if (!Files.exists(f)) {
            return new DatasetInfoFile(f, JsonlRows.JSON.createObjectNode());
        }
        JsonNode n;
        try {
            n = JsonlRows.JSON.readTree(Files.readString(f, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            throw new BadInputException(f + ": not JSON (" + e.getOriginalMessage() + "); LLaMA-Factory could not read"
                    + " it either: fix or remove it");
        } catch (IOException e) {
            throw new BadInputException(f + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (n == null || !n.isObject()) {
            throw new BadInputException(f + ": not a JSON object of datasets; fix or remove it");
        }
        return new DatasetInfoFile(f, (ObjectNode) n);
    }

    /**
     * The entry for an alpaca file: SFT columns ({@code output}) or preference columns ({@code chosen},
     * {@code rejected}, {@code "ranking": true}); {@code system} declared only when the rows have it (a declared
     * column the rows lack is an error in LLaMA-Factory).
     */
    public static ObjectNode alpacaEntry(String fileName, boolean preference, boolean system) {
        ObjectNode e = JsonlRows.JSON.createObjectNode();
        e.put("file_name", fileName);
        e.put("formatting", "alpaca");
        if (preference) {
            e.put("ranking", true);
        }
        ObjectNode c = e.putObject("columns");
        c.put("prompt", "instruction");
        c.put("query", "input");
        if (preference) {
            c.put("chosen", "chosen");
            c.put("rejected", "rejected");
        } else {
            c.put("response", "output");
        }
        if (system) {
            c.put("system", "system");
        }
        return e;
    }

    /** Adds or replaces the entry and writes the file (a temporary file moved in place). */
    public void put(String name, ObjectNode entry) {
        entries.set(name, entry);
        try {
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), "." + NAME, ".tmp");
            try {
                Files.writeString(tmp, JsonlRows.JSON.writer().with(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(entries) + "\n", StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot write: " + e.getMessage(), e);
        }
    }

    Path file() {
        return file;
    }
}
