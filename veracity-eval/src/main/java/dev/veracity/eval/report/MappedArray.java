package dev.veracity.eval.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A growable array of fixed-width values (or bytes) in a temporary file mapped into memory: off the Java heap, so a
 * run's per-question columns cost the heap nothing however many questions it has, and the kernel pages them out as it
 * needs. The file is deleted as soon as it is open (on POSIX systems; elsewhere when the JVM exits): nothing is left
 * behind, even by a killed process. Growing maps a larger window of the same file, copying nothing; {@link #seal()}
 * closes the file once the array is complete (its mapping stays valid, and is released with the array).
 *
 * <p>Reads are safe from several threads once sealed; writes are not synchronized (one builder writes).
 */
final class MappedArray {

    /** A mapping is addressed by int: at most 2 GB an array. */
    private static final long MAX_BYTES = Integer.MAX_VALUE - 8;

    private final int width;
    private FileChannel file;
    private MappedByteBuffer buffer;

    /** An array of {@code capacity} elements of {@code width} bytes (1, 4 or 8), all zero, growing as written. */
    MappedArray(int width, long capacity) {
        this.width = width;
        try {
            Path path = Files.createTempFile("veracity-run-", ".column");
            file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            try {
                Files.delete(path); // the open channel (and later the mapping) keep its data
            } catch (IOException e) {
                path.toFile().deleteOnExit(); // a system that cannot delete an open file
            }
        } catch (IOException e) {
            throw new UncheckedIOException("creating a temporary file for a run's table in "
                    + System.getProperty("java.io.tmpdir") + ": " + e.getMessage()
                    + " (set a writable folder with JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=DIR)", e);
        }
        map(Math.max(capacity, 16) * width);
    }

    private void map(long bytes) {
        if (bytes > MAX_BYTES) {
            throw new IllegalStateException("a run's table column would exceed 2 GB (" + bytes + " bytes)");
        }
        try {
            buffer = file.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("mapping a run's table (" + bytes + " bytes) from a temporary file in "
                    + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
        }
    }

    /** Makes room for element {@code index} (or byte, for width 1), doubling the mapping. */
    private void room(long index, int elements) {
        long end = (index + elements) * width;
        if (end > buffer.capacity()) {
            if (file == null) {
                throw new IllegalStateException("a sealed array is read-only");
            }
            map(Math.min(MAX_BYTES, Math.max(end, 2L * buffer.capacity())));
        }
    }

    /** Closes the file: the array is complete and is only read from now on. */
    void seal() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            file = null;
        }
    }

    double getDouble(int i) {
        return buffer.getDouble(i * 8);
    }

    void putDouble(int i, double v) {
        room(i, 1);
        buffer.putDouble(i * 8, v);
    }

    long getLong(int i) {
        return buffer.getLong(i * 8);
    }

    void putLong(int i, long v) {
        room(i, 1);
        buffer.putLong(i * 8, v);
    }

    int getInt(int i) {
        return buffer.getInt(i * 4);
    }

    void putInt(int i, int v) {
        room(i, 1);
        buffer.putInt(i * 4, v);
    }

    byte getByte(int i) {
        return buffer.get(i);
    }

    void putByte(int i, byte v) {
        room(i, 1);
        buffer.put(i, v);
    }

    /** Copies {@code bytes} in at byte {@code at} (width 1). */
    void putBytes(int at, byte[] bytes) {
        room(at, bytes.length);
        buffer.put(at, bytes);
    }

    /** {@code length} bytes from byte {@code at} (width 1). */
    byte[] getBytes(int at, int length) {
        byte[] out = new byte[length];
        buffer.get(at, out);
        return out;
    }
}
