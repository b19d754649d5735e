package dev.veracity.eval.run;

import dev.veracity.method.AgentRecord;
import dev.veracity.text.Unicode;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Appends each question's training records (a {@link dev.veracity.method.TrainingRecords} method's, e.g. MARCH's
 * Solver trajectory and one Checker trajectory with the ZTR reward), in the one agent-record schema
 * ({@link AgentRecord}), to a JSONL file during an eval run, for the RL exporters and {@code veracity rl inspect}. A
 * question redone after a kill appends its records again; exporters keep the last record per question and attempt.
 * The file is a {@link JsonlAppender}: a kill mid-write leaves a partial last line, which the next run cuts off before
 * it appends.
 *
 * <p>One question cannot break the file for the others: its lines are built in memory first and made well-formed
 * Unicode ({@link Unicode#repair}: a prompt from a dataset can hold a lone surrogate, which the strict UTF-8
 * encoder under the writer would refuse, leaving it broken for every later question), then written in one go. A
 * question whose records cannot even be built fails alone, before anything of it reaches the file.
 */
public final class AgentRecordsFile implements Consumer<List<AgentRecord>>, AutoCloseable {

    private final Path file;
    private final JsonlAppender out;

    public AgentRecordsFile(Path file) {
        this.file = file;
        this.out = JsonlAppender.open(file);
    }

    public Path file() {
        return file;
    }

    @Override
    public void accept(List<AgentRecord> records) {
        StringWriter lines = new StringWriter();
        for (AgentRecord r : records) {
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
