package dev.veracity.rl.jsonl;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes JSONL to a temporary file beside the target and moves it in place on {@link #commit()}; closing without a
 * commit deletes the temporary file, so a run that fails half-way leaves the target as it was (absent, or the old
 * file). The target may be the file being read: it is replaced only at the end.
 */
public final class AtomicJsonlWriter implements AutoCloseable {

    private final Path target;
    private final Path tmp;
    private final BufferedWriter out;
    private boolean committed;

    public AtomicJsonlWriter(Path target) {
        this.target = target.toAbsolutePath();
        try {
            Path dir = this.target.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            this.tmp = Files.createTempFile(dir, "." + this.target.getFileName(), ".tmp");
            this.out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadInputException(target + ": cannot write (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
    }

    public void write(JsonNode row) {
        try {
            out.write(JsonlRows.JSON.writeValueAsString(row));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(target + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** Flushes and moves the file in place. */
    public void commit() {
        try {
            out.close();
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            committed = true;
        } catch (IOException e) {
            throw new UncheckedIOException(target + ": cannot write: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (committed) {
            return;
        }
        try {
            out.close();
        } catch (IOException ignored) {
            // the file is deleted next
        }
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // best effort: a stray temporary file, never a partial target
        }
    }
}
