package dev.veracity.eval.data;

import dev.veracity.text.StrictUtf8Reader;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/** Opens dataset files, decompressing {@code .bz2} and {@code .gz} by file name. */
public final class Sources {

    private Sources() {
    }

    /** The file's bytes, decompressed when its name ends in {@code .bz2} or {@code .gz}. */
    public static InputStream open(Path file) {
        InputStream in = null;
        try {
            in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
            String name = lowerName(file);
            if (name.endsWith(".bz2")) {
                return new BufferedInputStream(new BZip2CompressorInputStream(in, true), 1 << 16);
            }
            if (name.endsWith(".gz")) {
                return new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
            }
            return in;
        } catch (IOException e) {
            closeQuietly(in);
            throw new DatasetException(file, "", "cannot read: " + describe(e), e);
        }
    }

    /**
     * The file as UTF-8 text, decompressed by file name. Bytes that are not UTF-8 fail the read (an IOException whose
     * {@link #readError} names the line), never a silent U+FFFD.
     */
    public static BufferedReader reader(Path file) {
        return new BufferedReader(new StrictUtf8Reader(open(file)), 1 << 16);
    }

    /**
     * The DatasetException for a failed read at {@code where}: text that is not UTF-8 at the line it is on, anything
     * else as "cannot read".
     */
    static DatasetException readError(Path file, String where, IOException e) {
        if (e instanceof StrictUtf8Reader.NotUtf8Exception bad) {
            return new DatasetException(file, Long.toString(bad.line()), bad.getMessage(), e);
        }
        return new DatasetException(file, where, "cannot read: " + describe(e), e);
    }

    /** The lower-case file name without a {@code .bz2} / {@code .gz} suffix, to tell the format by. */
    public static String formatName(Path file) {
        String name = lowerName(file);
        if (name.endsWith(".bz2")) {
            return name.substring(0, name.length() - 4);
        }
        if (name.endsWith(".gz")) {
            return name.substring(0, name.length() - 3);
        }
        return name;
    }

    private static String lowerName(Path file) {
        Path name = file.getFileName();
        return name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
    }

    static String describe(Throwable e) {
        String msg = e.getMessage();
        String kind = e.getClass().getSimpleName();
        return msg == null ? kind : kind + ": " + msg;
    }

    static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // nothing more to do
            }
        }
    }
}
