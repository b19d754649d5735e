package dev.veracity.cli;

import dev.veracity.methods.march.MarchOutcome;
import dev.veracity.text.Unicode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * Appends each question's MARCH training records (the Solver trajectory and one Checker trajectory with the ZTR
 * reward), in the one agent-record schema ({@link dev.veracity.method.AgentRecord}), to a JSONL file during an eval
 * run, for the RL exporters and {@code veracity rl inspect}. A question redone after a kill appends its
 * records again; exporters keep the last record per question and attempt.
 *
 * <p>One question cannot break the file for the others: its lines are built in memory first and made well-formed
 * Unicode ({@link Unicode#repair}: a prompt from a dataset can hold a lone surrogate, which the strict UTF-8
 * encoder under the writer would refuse, leaving it broken for every later question), then written in one go. A
 * question whose records cannot even be built fails alone, before anything of it reaches the file.
 */
final class MarchRecords implements Consumer<MarchOutcome>, AutoCloseable {

    private final Path file;
    private final Writer out;
    private final String run;

    /** @param run the run the records belong to (the eval's output folder name) */
    MarchRecords(Path file, String run) throws IOException {
        this.file = file;
        this.run = run;
        Files.createDirectories(file.toAbsolutePath().getParent());
        this.out = Files.newBufferedWriter(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    Path file() {
        return file;
    }

    @Override
    public void accept(MarchOutcome outcome) {
        StringWriter lines = new StringWriter();
        for (dev.veracity.method.AgentRecord r : outcome.trainingRecords(run)) {
            lines.write(r.toJson().toString());
            lines.write('\n');
        }
        write(Unicode.repair(lines.toString()));
    }

    private synchronized void write(String lines) {
        try {
            out.write(lines);
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
