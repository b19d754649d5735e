package dev.veracity.cli;

import dev.veracity.methods.march.MarchOutcome;
import dev.veracity.methods.march.TrainingRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * Appends each question's MARCH training records (the Solver trajectory and one Checker trajectory with the ZTR
 * reward) to a JSONL file during an eval run, for the RL exporters. A question redone after a kill appends its
 * records again; exporters keep the last record per question and attempt.
 */
final class MarchRecords implements Consumer<MarchOutcome>, AutoCloseable {

    private final Path file;
    private final Writer out;

    MarchRecords(Path file) throws IOException {
        this.file = file;
        Files.createDirectories(file.toAbsolutePath().getParent());
        this.out = Files.newBufferedWriter(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    Path file() {
        return file;
    }

    @Override
    public synchronized void accept(MarchOutcome outcome) {
        try {
            TrainingRecord.writeJsonl(out, outcome.trainingRecords());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing MARCH training records to " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing " + file, e);
        }
    }
}
