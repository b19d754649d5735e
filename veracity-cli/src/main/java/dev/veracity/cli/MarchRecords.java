package dev.veracity.cli;

import dev.veracity.eval.run.JsonlAppender;
import dev.veracity.methods.march.MarchOutcome;
import dev.veracity.text.Unicode;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Appends each question's MARCH training records (the Solver trajectory and one Checker trajectory with the ZTR
 * reward), in the one agent-record schema ({@link dev.veracity.method.AgentRecord}), to a JSONL file during an eval
 * run, for the RL exporters and {@code veracity rl inspect}. A question redone after a kill appends its
 * records again; exporters keep the last record per question and attempt. The file is a {@link JsonlAppender}: a
 * kill mid-write leaves a partial last line, which the next run cuts off before it appends.
 *
 * <p>One question cannot break the file for the others: its lines are built in memory first and made well-formed
 * Unicode ({@link Unicode#repair}: a prompt from a dataset can hold a lone surrogate, which the strict UTF-8
 * encoder under the writer would refuse, leaving it broken for every later question), then written in one go. A
 * question whose records cannot even be built fails alone, before anything of it reaches the file.
 */
final class MarchRecords implements Consumer<MarchOutcome>, AutoCloseable {

    private final Path file;
    private final JsonlAppender out;
    private final String run;

    /** @param run the run the records belong to (the eval's output folder name) */
    MarchRecords(Path file, String run) {
        this.file = file;
        this.run = run;
        this.out = JsonlAppender.open(file);
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

    private void write(String lines) {
        if (!lines.isEmpty()) {
            out.append(lines); // one write: a question's records are in the file whole or not at all
        }
    }

    @Override
    public void close() {
        out.close();
    }
}
