package dev.veracity.retrieval.embed;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes .npy files byte by byte as numpy.lib.format documents them, for tests. */
public final class Npy {

    private Npy() {
    }

    /** A C-order little-endian float32 matrix in format version {@code major}. */
    public static Path write(Path file, float[][] rows, int major) throws IOException {
        int dim = rows.length == 0 ? 0 : rows[0].length;
        ByteBuffer data = ByteBuffer.allocate(4 * rows.length * dim).order(ByteOrder.LITTLE_ENDIAN);
        for (float[] r : rows) {
            for (float x : r) {
                data.putFloat(x);
            }
        }
        return write(file, "{'descr': '<f4', 'fortran_order': False, 'shape': (" + rows.length + ", " + dim + "), }",
                data.array(), major);
    }

    /** Any header dict and data bytes: the header is padded with spaces and a newline to a multiple of 64 bytes. */
    public static Path write(Path file, String dict, byte[] data, int major) throws IOException {
        int prefix = major == 1 ? 10 : 12;
        int total = prefix + dict.length() + 1;
        int padded = (total + 63) / 64 * 64;
        String header = dict + " ".repeat(padded - total) + "\n";
        ByteBuffer b = ByteBuffer.allocate(padded + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
        if (major == 1) {
            b.putShort((short) header.length());
        } else {
            b.putInt(header.length());
        }
        b.put(header.getBytes(StandardCharsets.ISO_8859_1)).put(data);
        return Files.write(file, b.array());
    }
}
