package dev.veracity.retrieval.embed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A matrix of float32 rows in NumPy's {@code .npy} format (what {@code np.save} writes, and FlashRAG's
 * {@code emb_*.memmap} saved with it), read by memory map: a 21M x 768 file (64 GB) costs no heap, and rows are read
 * by any number of threads at once.
 *
 * <p>The format (numpy.lib.format): the magic {@code \x93NUMPY}, a major and minor version byte, the header's length
 * (little-endian uint16 in version 1, uint32 in versions 2 and 3), the header (a Python dict literal with
 * {@code descr}, {@code fortran_order} and {@code shape}, padded with spaces to a multiple of 64 bytes), then the data.
 * Accepted: {@code descr} {@code '<f4'} (little-endian float32; {@code '=f4'} is NumPy's alias on this platform, not
 * written by np.save), {@code fortran_order} False (C order: row after row), a two-dimensional {@code shape}. Anything
 * else is refused at {@link #open} with one line that says what to do.
 */
public final class NpyFile implements AutoCloseable {

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");
    /** Rows per mapping: a mapping is at most 2 GB; 1 GB pieces keep each well inside. */
    private static final long CHUNK_BYTES = 1L << 30;

    private final Path file;
    private final FileChannel channel;
    private final long rows;
    private final int dimension;
    private final long dataOffset;
    private final long rowsPerChunk;
    private final AtomicReferenceArray<FloatBuffer> chunks;

    private NpyFile(Path file, FileChannel channel, long rows, int dimension, long dataOffset) {
        this.file = file;
        this.channel = channel;
        this.rows = rows;
        this.dimension = dimension;
        this.dataOffset = dataOffset;
        this.rowsPerChunk = Math.max(1, CHUNK_BYTES / (4L * dimension));
        this.chunks = new AtomicReferenceArray<>((int) ((rows + rowsPerChunk - 1) / rowsPerChunk));
    }

    /** Opens and checks the file; the data is mapped as rows are read. */
    public static NpyFile open(Path file) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        }
        try {
            return parse(file, ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static NpyFile parse(Path file, FileChannel ch) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(head, 0);
        head.flip();
        byte[] magic = new byte[Math.min(6, head.remaining())];
        head.get(magic);
        if (!java.util.Arrays.equals(magic, MAGIC) || head.remaining() < 4) {
            throw bad(file, "not a NumPy .npy file (no \\x93NUMPY magic): save the array with np.save");
        }
        int major = head.get() & 0xff;
        head.get(); // minor
        long headerLength;
        long headerStart;
        if (major == 1) {
            headerLength = head.getShort() & 0xffff;
            headerStart = 10;
        } else if (major == 2 || major == 3) {
            if (head.remaining() < 4) {
                throw bad(file, "truncated .npy header");
            }
            headerLength = head.getInt() & 0xffffffffL;
            headerStart = 12;
        } else {
            throw bad(file, ".npy format version " + major + " is not one of 1, 2, 3");
        }
        if (headerLength > 1 << 20 || headerStart + headerLength > ch.size()) {
            throw bad(file, "truncated .npy header");
        }
        ByteBuffer hb = ByteBuffer.allocate((int) headerLength);
        ch.read(hb, headerStart);
        String header = new String(hb.array(), major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        String descr = group(file, DESCR, header, "descr");
        if (!descr.equals("<f4") && !descr.equals("=f4")) {
            throw bad(file, "dtype '" + descr + "' (" + dtypeName(descr) + "); import needs little-endian float32"
                    + " ('<f4'): save it with np.save(path, array.astype('<f4'))");
        }
        if (group(file, FORTRAN, header, "fortran_order").equals("True")) {
            throw bad(file, "fortran_order is True (column after column); import reads rows: save a C-order array,"
                    + " np.save(path, np.ascontiguousarray(array))");
        }
        String[] dims = group(file, SHAPE, header, "shape").replace(" ", "").split(",");
        if (dims.length != 2 || dims[0].isEmpty() || dims[1].isEmpty()) {
            throw bad(file, "shape (" + String.join(",", dims) + ") is not two-dimensional (passages, dimension)");
        }
        long rows = Long.parseLong(dims[0]);
        long dim = Long.parseLong(dims[1]);
        if (rows < 1 || dim < 1 || dim > 4096) {
            throw bad(file, "shape (" + rows + ", " + dim + ") has no rows or an impossible dimension");
        }
        long data = headerStart + headerLength;
        if (ch.size() < data + rows * dim * 4) {
            throw bad(file, "holds " + (ch.size() - data) + " bytes of data, not the " + rows * dim * 4 + " its shape ("
                    + rows + ", " + dim + ") needs: the file is truncated");
        }
        return new NpyFile(file, ch, rows, (int) dim, data);
    }

    private static String group(Path file, Pattern p, String header, String key) {
        Matcher m = p.matcher(header);
        if (!m.find()) {
            throw bad(file, "the .npy header has no '" + key + "': " + header.strip());
        }
        return m.group(1);
    }

    private static String dtypeName(String descr) {
        String kind = descr.length() >= 2 ? descr.substring(1) : descr;
        String order = descr.startsWith(">") ? "big-endian " : "";
        return order + switch (kind) {
            case "f8" -> "float64";
            case "f2" -> "float16";
            case "f4" -> "float32";
            default -> kind.startsWith("i") || kind.startsWith("u") ? "integers" : "not float32";
        };
    }

    private static IllegalArgumentException bad(Path file, String what) {
        return new IllegalArgumentException(file + ": " + what);
    }

    public Path file() {
        return file;
    }

    public long rows() {
        return rows;
    }

    public int dimension() {
        return dimension;
    }

    /** Row {@code i} (a copy). Thread-safe. */
    public float[] row(long i) {
        if (i < 0 || i >= rows) {
            throw new IndexOutOfBoundsException("row " + i + " of " + rows);
        }
        float[] out = new float[dimension];
        chunk((int) (i / rowsPerChunk)).get((int) ((i % rowsPerChunk) * dimension), out);
        return out;
    }

    private FloatBuffer chunk(int c) {
        FloatBuffer fb = chunks.get(c);
        if (fb == null) { // two threads may both map a piece: harmless, one mapping wins
            long first = c * rowsPerChunk;
            long n = Math.min(rowsPerChunk, rows - first);
            try {
                fb = channel.map(FileChannel.MapMode.READ_ONLY, dataOffset + first * dimension * 4L, n * dimension * 4L)
                        .order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot map " + file + ": " + e.getMessage(), e);
            }
            chunks.compareAndSet(c, null, fb);
            fb = chunks.get(c);
        }
        return fb;
    }

    @Override
    public void close() throws IOException {
        channel.close(); // the mappings stay valid until collected, as the JDK defines
    }
}
