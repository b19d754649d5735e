package dev.veracity.llm.llamacpp;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The header of a GGUF file, read in Java before llama.cpp sees the file. Two reasons: llama.cpp only says "could
 * not load model" for any bad file, while this reader names the problem (not GGUF, old GGML, truncated); and the
 * backend needs a few metadata values the binding does not expose (the embedded chat template, whether the
 * tokenizer adds BOS).
 *
 * <p>Scalar values are kept (strings, integers as {@link Long}, floats as {@link Double}, booleans); arrays are
 * skipped and kept as their {@link ArrayValue} type and length only, so reading a 150k-token vocabulary costs a
 * scan, not memory.
 *
 * @param version     GGUF version (2 or 3)
 * @param tensorCount number of tensors
 * @param values      metadata key/values, in file order
 * @param fileSize    the file's size in bytes
 */
public record GgufMetadata(int version, long tensorCount, Map<String, Object> values, long fileSize) {

    /** An array value: its element type (a GGUF type code) and length. */
    public record ArrayValue(int elementType, long length) {
    }

    private static final int MAGIC = 0x46554747; // "GGUF" read little-endian
    private static final int DEFAULT_ALIGNMENT = 32;
    private static final long MAX_STRING = 64L << 20;
    private static final long MAX_ENTRIES = 1L << 32;

    public GgufMetadata {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * Reads and checks a GGUF file's header, metadata and tensor table (that each tensor's data lies inside the
     * file, for the tensor types whose size it knows).
     *
     * @throws IOException with a message that says what is wrong with the file
     */
    public static GgufMetadata read(Path file) throws IOException {
        long size = Files.size(file);
        try (Reader in = new Reader(new BufferedInputStream(Files.newInputStream(file), 1 << 16), size)) {
            int magic = in.i32();
            if (magic != MAGIC) {
                throw new IOException(describeBadMagic(magic));
            }
            int version = in.i32();
            if (version < 2 || version > 3) {
                throw new IOException("unsupported GGUF version " + version + " (llama.cpp reads versions 2 and 3)");
            }
            long tensors = in.count("tensor count");
            long kvs = in.count("metadata count");
            Map<String, Object> values = new LinkedHashMap<>();
            for (long i = 0; i < kvs; i++) {
                String key = in.string();
                values.put(key, in.value(in.i32()));
            }
            GgufMetadata meta = new GgufMetadata(version, tensors, values, size);
            meta.checkTensors(in);
            return meta;
        } catch (EOFException e) {
            throw new IOException("the file ends inside its header: it is truncated or not a GGUF model", e);
        } catch (ArithmeticException e) {
            throw new IOException("the header holds sizes that overflow: the file is corrupt", e);
        }
    }

    private static String describeBadMagic(int magic) {
        byte[] b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(magic).array();
        String text = new String(b, StandardCharsets.ISO_8859_1);
        if (text.equals("lmgg") || text.equals("fmgg") || text.equals("tjgg")) {
            return "this is an old GGML file, which llama.cpp no longer reads; convert it to GGUF";
        }
        return "the file does not start with the GGUF magic number: it is not a GGUF model";
    }

    /** Reads the tensor infos and checks every tensor's data lies within the file. */
    private void checkTensors(Reader in) throws IOException {
        long alignment = integer("general.alignment").orElse(DEFAULT_ALIGNMENT);
        if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
            throw new IOException("general.alignment is " + alignment + ", not a power of two");
        }
        // Only the tensor whose data ends last matters; keep it rather than every tensor's info.
        String last = null;
        long lastEnd = 0;
        for (long t = 0; t < tensorCount; t++) {
            String name = in.string();
            int dims = in.i32();
            if (dims < 1 || dims > 4) {
                throw new IOException("tensor '" + name + "' has " + dims + " dimensions (at most 4)");
            }
            long elements = 1;
            long first = 0;
            for (int d = 0; d < dims; d++) {
                long ne = in.i64();
                if (ne < 0) {
                    throw new IOException("tensor '" + name + "' has a negative dimension");
                }
                first = d == 0 ? ne : first;
                elements = Math.multiplyExact(elements, ne);
            }
            int type = in.i32();
            long offset = in.i64();
            long end = Math.addExact(offset, Math.max(GgmlTypes.bytes(type, first, elements), 0));
            if (last == null || end > lastEnd) {
                last = name;
                lastEnd = end;
            }
        }
        long dataStart = (in.position() + alignment - 1) / alignment * alignment;
        if (last != null && dataStart + lastEnd > fileSize) {
            throw new IOException("tensor '" + last + "' ends at byte " + (dataStart + lastEnd)
                    + " but the file has only " + fileSize + " bytes: it is truncated or corrupt");
        }
    }

    public Optional<String> string(String key) {
        return values.get(key) instanceof String s ? Optional.of(s) : Optional.empty();
    }

    public OptionalLong integer(String key) {
        return values.get(key) instanceof Long l ? OptionalLong.of(l) : OptionalLong.empty();
    }

    public Optional<Boolean> bool(String key) {
        return values.get(key) instanceof Boolean b ? Optional.of(b) : Optional.empty();
    }

    /** {@code general.architecture}, such as "llama" or "qwen2". */
    public Optional<String> architecture() {
        return string("general.architecture");
    }

    /** The context length the model was trained with ({@code <arch>.context_length}). */
    public OptionalLong contextLength() {
        return architecture().map(a -> integer(a + ".context_length")).orElse(OptionalLong.empty());
    }

    /** The Jinja chat template embedded by the converter ({@code tokenizer.chat_template}), if any. */
    public Optional<String> chatTemplate() {
        return string("tokenizer.chat_template").filter(s -> !s.isBlank());
    }

    /**
     * Whether llama.cpp adds a BOS token when it tokenises a prompt: the file's {@code add_bos_token} flag, else
     * llama.cpp's default for the tokenizer model (SentencePiece "llama" and WordPiece "bert" add one).
     */
    public boolean addsBos() {
        return bool("tokenizer.ggml.add_bos_token").orElseGet(() -> {
            String model = string("tokenizer.ggml.model").orElse("");
            return model.equals("llama") || model.equals("bert");
        });
    }

    /** Whether llama.cpp appends an EOS token to a prompt (T5-style "t5" tokenizers do by default). */
    public boolean addsEos() {
        return bool("tokenizer.ggml.add_eos_token").orElseGet(() -> string("tokenizer.ggml.model")
                .map("t5"::equals).orElse(false));
    }

    /** Little-endian primitive reads with GGUF's length-prefixed strings and bounds against garbage sizes. */
    private static final class Reader implements AutoCloseable {
        private final InputStream in;
        private final long size;
        private final byte[] buf = new byte[8];
        private long position;

        Reader(InputStream in, long size) {
            this.in = in;
            this.size = size;
        }

        long position() {
            return position;
        }

        private ByteBuffer read(int n) throws IOException {
            if (in.readNBytes(buf, 0, n) != n) {
                throw new EOFException();
            }
            position += n;
            if (position > size) {
                throw new EOFException();
            }
            return ByteBuffer.wrap(buf, 0, n).order(ByteOrder.LITTLE_ENDIAN);
        }

        int i32() throws IOException {
            return read(4).getInt();
        }

        long i64() throws IOException {
            return read(8).getLong();
        }

        long count(String what) throws IOException {
            long n = i64();
            if (n < 0 || n > MAX_ENTRIES) {
                throw new IOException("implausible " + what + " " + Long.toUnsignedString(n) + ": the file is corrupt");
            }
            return n;
        }

        String string() throws IOException {
            long n = i64();
            if (n < 0 || n > MAX_STRING || position + n > size) {
                throw new IOException("a string of " + Long.toUnsignedString(n) + " bytes at offset " + position
                        + " runs past the end of the file: it is truncated or corrupt");
            }
            byte[] b = in.readNBytes((int) n);
            if (b.length != n) {
                throw new EOFException();
            }
            position += n;
            return new String(b, StandardCharsets.UTF_8);
        }

        private void skip(long n) throws IOException {
            if (position + n > size) {
                throw new EOFException();
            }
            in.skipNBytes(n);
            position += n;
        }

        Object value(int type) throws IOException {
            return switch (type) {
                case 0, 1, 7 -> {
                    int b = read(1).get();
                    yield type == 7 ? (Object) (b != 0) : (Object) (long) (type == 0 ? b & 0xFF : b);
                }
                case 2 -> (long) (read(2).getShort() & 0xFFFF);
                case 3 -> (long) read(2).getShort();
                case 4 -> i32() & 0xFFFFFFFFL;
                case 5 -> (long) i32();
                case 6 -> (double) read(4).getFloat();
                case 8 -> string();
                case 9 -> array();
                case 10, 11 -> i64();
                case 12 -> read(8).getDouble();
                default -> throw new IOException("unknown metadata value type " + type + " at offset " + position
                        + ": the file is corrupt or from a newer GGUF version");
            };
        }

        private ArrayValue array() throws IOException {
            int type = i32();
            long n = count("array length");
            int width = switch (type) {
                case 0, 1, 7 -> 1;
                case 2, 3 -> 2;
                case 4, 5, 6 -> 4;
                case 10, 11, 12 -> 8;
                default -> 0;
            };
            if (width > 0) {
                skip(Math.multiplyExact(n, width));
            } else if (type == 8) {
                for (long i = 0; i < n; i++) {
                    long len = i64();
                    if (len < 0 || len > MAX_STRING) {
                        throw new IOException("corrupt string in an array at offset " + position);
                    }
                    skip(len);
                }
            } else {
                throw new IOException("unsupported array element type " + type + " at offset " + position);
            }
            return new ArrayValue(type, n);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
