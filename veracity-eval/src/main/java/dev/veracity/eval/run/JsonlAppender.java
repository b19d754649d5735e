package dev.veracity.eval.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An append-only JSONL file of a run folder that survives SIGKILL at any moment. Opening cuts off a partial last line
 * (what a killed writer left: otherwise the next append would glue a whole line onto it, and the file would hold a
 * line that is not JSON); each append is whole lines in one write of one buffer, which a killed process either made
 * or did not. Appends are serialised.
 */
public final class JsonlAppender implements AutoCloseable {

    private final Path file;
    private final FileChannel channel;
    private final long truncatedBytes;

    private JsonlAppender(Path file) throws IOException {
        this.file = file;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        long size = channel.size();
        long keep = endOfLastLine(channel, size);
        this.truncatedBytes = size - keep;
        channel.truncate(keep);
        channel.position(keep);
    }

    /** Opens (creating it and its folder) and cuts a partial last line. */
    public static JsonlAppender open(Path file) {
        try {
            return new JsonlAppender(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + " for appending: " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    /** Bytes of a partial last line that opening cut off (0 after a clean stop). */
    public long truncatedBytes() {
        return truncatedBytes;
    }

    /** Appends {@code lines}, which must end with a newline, in one write. */
    public synchronized void append(String lines) {
        if (!lines.endsWith("\n")) {
            throw new IllegalArgumentException("an append must end with a newline");
        }
        ByteBuffer buf = ByteBuffer.wrap(lines.getBytes(StandardCharsets.UTF_8));
        try {
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The offset just past the last newline: what a killed writer left whole. Reads backwards from the end. */
    private static long endOfLastLine(FileChannel ch, long size) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(8192);
        for (long end = size; end > 0; ) {
            long start = Math.max(0, end - buf.capacity());
            buf.clear().limit((int) (end - start));
            while (buf.hasRemaining() && ch.read(buf, start + buf.position()) >= 0) {
                // positional reads until the slice is full
            }
            for (int i = (int) (end - start) - 1; i >= 0; i--) {
                if (buf.get(i) == '\n') {
                    return start + i + 1;
                }
            }
            end = start;
        }
        return 0;
    }

    /** Forces the file to disk and closes it. */
    @Override
    public synchronized void close() {
        try {
            channel.force(true);
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
        }
    }
}
