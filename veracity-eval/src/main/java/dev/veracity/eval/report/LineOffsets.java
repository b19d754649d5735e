package dev.veracity.eval.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where each line of a {@code results.jsonl} starts, off the heap ({@link MappedArray}, 8 bytes a line), so that a
 * line is read again by its number without reading the ones before it: what a reader that visits rows out of file
 * order needs (a merge writes the rows of several files in the dataset's order). Lines are numbered from 1 and end
 * where {@link java.io.BufferedReader#readLine} ends them ({@code \n}, {@code \r} or {@code \r\n}), so the numbers are
 * those {@link ResultsJsonl} gives; UTF-8 puts neither byte inside a character.
 */
final class LineOffsets implements AutoCloseable {

    private final Path file;
    private FileChannel channel;
    /** Element i: the byte where line i + 1 starts; one more element: where the file ends. */
    private final MappedArray starts;
    private final int lines;

    private LineOffsets(Path file, MappedArray starts, int lines) {
        this.file = file;
        this.starts = starts;
        this.lines = lines;
    }

    /** Scans {@code file} once. */
    static LineOffsets of(Path file) {
        MappedArray starts = new MappedArray(8, 1024);
        int lines = 0;
        long at = 0;
        try (InputStream in = Files.newInputStream(file)) {
            long lineStart = 0;
            boolean open = false; // bytes since the last line end
            boolean afterCr = false;
            byte[] block = new byte[1 << 16];
            for (int n; (n = in.read(block)) >= 0; ) {
                for (int i = 0; i < n; i++, at++) {
                    byte b = block[i];
                    if (b == '\n' && afterCr) {
                        afterCr = false;
                        lineStart = at + 1;
                        continue; // the \n of a \r\n: the line ended at the \r
                    }
                    afterCr = false;
                    if (b == '\n' || b == '\r') {
                        starts.putLong(lines++, lineStart);
                        lineStart = at + 1;
                        open = false;
                        afterCr = b == '\r';
                    } else {
                        open = true;
                    }
                }
            }
            if (open) {
                starts.putLong(lines++, lineStart);
            }
        } catch (IOException e) {
            starts.seal(); // closes its file: the mapping goes with the array
            throw new UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            starts.seal(); // closes its file: the mapping goes with the array
            throw e;
        }
        starts.putLong(lines, at);
        starts.seal();
        return new LineOffsets(file, starts, lines);
    }

    int lines() {
        return lines;
    }

    /** Line {@code lineNo} (from 1), without its end. */
    String line(int lineNo) {
        if (lineNo < 1 || lineNo > lines) {
            throw new IllegalArgumentException(file + " has no line " + lineNo);
        }
        long from = starts.getLong(lineNo - 1);
        long to = starts.getLong(lineNo);
        try {
            if (channel == null) {
                channel = FileChannel.open(file, StandardOpenOption.READ);
            }
            ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(to - from));
            while (buf.hasRemaining() && channel.read(buf, from + buf.position()) >= 0) {
                // read to the end of the line
            }
            int end = buf.position();
            while (end > 0 && (buf.get(end - 1) == '\n' || buf.get(end - 1) == '\r')) {
                end--;
            }
            return new String(buf.array(), 0, end, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
            }
            channel = null;
        }
    }
}
