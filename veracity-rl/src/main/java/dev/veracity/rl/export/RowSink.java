package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import java.nio.file.Path;

/**
 * Where the rows of a training file go. Nothing appears at the target before {@link #commit()}: closing without a
 * commit leaves it as it was, so a bad dataset line half-way through leaves no partial file.
 */
interface RowSink extends AutoCloseable {

    void write(ObjectNode row);

    /** Puts the complete file in place. */
    void commit();

    @Override
    void close();

    /** JSON Lines, written to a temporary file moved over the target on commit. */
    static RowSink jsonl(Path target) {
        AtomicJsonlWriter w = new AtomicJsonlWriter(target);
        return new RowSink() {
            @Override
            public void write(ObjectNode row) {
                w.write(row);
            }

            @Override
            public void commit() {
                w.commit();
            }

            @Override
            public void close() {
                w.close();
            }
        };
    }
}
