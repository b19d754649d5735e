package dev.veracity.llm.llamacpp;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes a tiny llama-architecture GGUF v3 model with random F32 weights, so tests exercise the real llama.cpp
 * loading and decoding path without any downloaded weights (none can be had here). The output is meaningless
 * text; tests assert protocol behaviour only.
 *
 * <p>The file holds: the header ({@code GGUF}, version 3, tensor count, kv count), the metadata key/value pairs
 * llama.cpp needs for a llama model and a SentencePiece ("llama") tokenizer, the tensor infos (name, dims in
 * ggml order, type F32, offset into the data section), zero padding to {@value #ALIGNMENT} bytes, then the tensor
 * data, each tensor starting on an aligned offset. Everything is little-endian.
 *
 * <p>The vocabulary is {@code <unk> <s> </s>}, the 256 byte-fallback tokens {@code <0x00>..<0xFF>}, every
 * printable ASCII character, {@code ▁} (the SentencePiece space) and some common English word pieces, so any
 * text tokenises (unknown characters fall back to bytes) and decodes back to itself. The same seed always writes
 * the same bytes.
 */
public final class TinyGguf {

    /** Tensor data alignment (the GGUF default, {@code general.alignment}). */
    public static final int ALIGNMENT = 32;

    public static final int BOS = 1;
    public static final int EOS = 2;

    private static final String SPACE = "\u2581";
    private static final String[] PIECES = {
        "▁the", "▁a", "▁and", "▁of", "▁to", "▁in", "▁is", "▁are", "▁it", "▁that", "▁for", "▁on", "▁with",
        "▁as", "▁was", "▁be", "▁by", "▁this", "▁at", "▁from", "▁or", "▁an", "▁not", "▁but", "▁they", "▁we",
        "▁you", "▁he", "▁she", "▁apple", "▁apples", "▁pear", "▁pears", "▁fruit", "▁write", "▁three",
        "▁sentences", "▁about", "▁red", "▁green", "▁sweet", "▁tree", "▁grow", "th", "he", "in", "er", "an",
        "re", "on", "at", "en", "nd", "ti", "es", "or", "te", "of", "ed", "is", "it", "al", "ar", "st", "to",
        "nt", "ng", "ing", "ion", "ent", "and", "ear", "ple", "les", "ears", "ples", "▁ap", "▁app", "▁pe",
    };

    // GGUF metadata value types.
    private static final int T_UINT32 = 4;
    private static final int T_INT32 = 5;
    private static final int T_FLOAT32 = 6;
    private static final int T_BOOL = 7;
    private static final int T_STRING = 8;
    private static final int T_ARRAY = 9;

    // Token types of llama.cpp's vocabulary.
    private static final int TOKEN_NORMAL = 1;
    private static final int TOKEN_UNKNOWN = 2;
    private static final int TOKEN_CONTROL = 3;
    private static final int TOKEN_BYTE = 6;

    /**
     * The shape of the model to write.
     *
     * @param layers       transformer blocks
     * @param width        embedding width
     * @param heads        attention heads (and KV heads)
     * @param feedForward  feed-forward width
     * @param contextLength training context length written to the metadata
     * @param chatTemplate a Jinja chat template to embed as {@code tokenizer.chat_template}, or null for none
     * @param architecture the {@code general.architecture} value ("llama"; anything else makes llama.cpp refuse
     *                     the file, which error tests want)
     * @param seed         the weights' random seed
     */
    public record Spec(int layers, int width, int heads, int feedForward, int contextLength, String chatTemplate,
                       String architecture, long seed) {

        /** 2 layers, width 64, 4 heads, a 2048-token context, no chat template. */
        public static Spec tiny(long seed) {
            return new Spec(2, 64, 4, 128, 2048, null, "llama", seed);
        }

        public Spec withChatTemplate(String template) {
            return new Spec(layers, width, heads, feedForward, contextLength, template, architecture, seed);
        }

        public Spec withArchitecture(String name) {
            return new Spec(layers, width, heads, feedForward, contextLength, chatTemplate, name, seed);
        }
    }

    private TinyGguf() {
    }

    /** Writes the tiny model for {@code seed} as {@code dir/tiny-<seed>.gguf}. */
    public static Path write(Path dir, long seed) {
        return write(dir.resolve("tiny-" + seed + ".gguf"), Spec.tiny(seed));
    }

    /** Writes a model of the given shape to {@code file}. */
    public static Path write(Path file, Spec spec) {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(bytes(spec));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The vocabulary, in token id order. */
    public static List<String> vocabulary() {
        List<String> tokens = new ArrayList<>();
        tokens.add("<unk>");
        tokens.add("<s>");
        tokens.add("</s>");
        for (int b = 0; b < 256; b++) {
            tokens.add(String.format("<0x%02X>", b));
        }
        tokens.add(SPACE);
        for (char c = 0x21; c < 0x7F; c++) {
            tokens.add(String.valueOf(c));
        }
        tokens.addAll(List.of(PIECES));
        return tokens;
    }

    /** The whole file as bytes. */
    public static byte[] bytes(Spec spec) {
        List<String> vocab = vocabulary();
        int n = spec.width();
        Map<String, long[]> shapes = new LinkedHashMap<>();
        // ggml order: ne[0] is the input (row) dimension, ne[1] the output dimension.
        shapes.put("token_embd.weight", new long[] {n, vocab.size()});
        for (int l = 0; l < spec.layers(); l++) {
            String p = "blk." + l + ".";
            shapes.put(p + "attn_norm.weight", new long[] {n});
            shapes.put(p + "attn_q.weight", new long[] {n, n});
            shapes.put(p + "attn_k.weight", new long[] {n, n});
            shapes.put(p + "attn_v.weight", new long[] {n, n});
            shapes.put(p + "attn_output.weight", new long[] {n, n});
            shapes.put(p + "ffn_norm.weight", new long[] {n});
            shapes.put(p + "ffn_gate.weight", new long[] {n, spec.feedForward()});
            shapes.put(p + "ffn_up.weight", new long[] {n, spec.feedForward()});
            shapes.put(p + "ffn_down.weight", new long[] {spec.feedForward(), n});
        }
        shapes.put("output_norm.weight", new long[] {n});
        shapes.put("output.weight", new long[] {n, vocab.size()});

        Writer w = new Writer();
        w.bytes("GGUF".getBytes(StandardCharsets.US_ASCII));
        w.u32(3);
        w.u64(shapes.size());
        List<Runnable> kvs = metadata(w, spec, vocab);
        w.u64(kvs.size());
        kvs.forEach(Runnable::run);

        long offset = 0;
        for (Map.Entry<String, long[]> t : shapes.entrySet()) {
            w.string(t.getKey());
            w.u32(t.getValue().length);
            for (long d : t.getValue()) {
                w.u64(d);
            }
            w.u32(0); // GGML_TYPE_F32
            w.u64(offset);
            offset = align(offset + 4 * elements(t.getValue()));
        }
        w.pad();

        Random random = new Random(spec.seed());
        for (Map.Entry<String, long[]> t : shapes.entrySet()) {
            float[] data = weights(t.getKey(), t.getValue(), random);
            for (float f : data) {
                w.f32(f);
            }
            w.pad();
        }
        return w.toByteArray();
    }

    private static List<Runnable> metadata(Writer w, Spec spec, List<String> vocab) {
        List<Runnable> kv = new ArrayList<>();
        kv.add(() -> w.kvString("general.architecture", spec.architecture()));
        kv.add(() -> w.kvString("general.name", "veracity-tiny-random"));
        kv.add(() -> w.kvU32("general.file_type", 0)); // all F32
        kv.add(() -> w.kvU32("general.alignment", ALIGNMENT));
        kv.add(() -> w.kvU32("llama.context_length", spec.contextLength()));
        kv.add(() -> w.kvU32("llama.embedding_length", spec.width()));
        kv.add(() -> w.kvU32("llama.block_count", spec.layers()));
        kv.add(() -> w.kvU32("llama.feed_forward_length", spec.feedForward()));
        kv.add(() -> w.kvU32("llama.attention.head_count", spec.heads()));
        kv.add(() -> w.kvU32("llama.attention.head_count_kv", spec.heads()));
        kv.add(() -> w.kvU32("llama.rope.dimension_count", spec.width() / spec.heads()));
        kv.add(() -> w.kvF32("llama.attention.layer_norm_rms_epsilon", 1e-5f));
        kv.add(() -> w.kvF32("llama.rope.freq_base", 10000f));
        kv.add(() -> w.kvU32("llama.vocab_size", vocab.size()));
        kv.add(() -> w.kvString("tokenizer.ggml.model", "llama"));
        kv.add(() -> {
            w.key("tokenizer.ggml.tokens");
            w.u32(T_ARRAY);
            w.u32(T_STRING);
            w.u64(vocab.size());
            vocab.forEach(w::string);
        });
        kv.add(() -> {
            w.key("tokenizer.ggml.scores");
            w.u32(T_ARRAY);
            w.u32(T_FLOAT32);
            w.u64(vocab.size());
            for (int i = 0; i < vocab.size(); i++) {
                // SentencePiece merges the pair whose merged piece scores highest: prefer longer pieces.
                w.f32(i < 259 ? 0f : -1000f + 10f * vocab.get(i).length() - i * 0.001f);
            }
        });
        kv.add(() -> {
            w.key("tokenizer.ggml.token_type");
            w.u32(T_ARRAY);
            w.u32(T_INT32);
            w.u64(vocab.size());
            for (int i = 0; i < vocab.size(); i++) {
                w.i32(i == 0 ? TOKEN_UNKNOWN : i < 3 ? TOKEN_CONTROL : i < 259 ? TOKEN_BYTE : TOKEN_NORMAL);
            }
        });
        kv.add(() -> w.kvU32("tokenizer.ggml.unknown_token_id", 0));
        kv.add(() -> w.kvU32("tokenizer.ggml.bos_token_id", BOS));
        kv.add(() -> w.kvU32("tokenizer.ggml.eos_token_id", EOS));
        kv.add(() -> w.kvBool("tokenizer.ggml.add_bos_token", true));
        kv.add(() -> w.kvBool("tokenizer.ggml.add_eos_token", false));
        if (spec.chatTemplate() != null) {
            kv.add(() -> w.kvString("tokenizer.chat_template", spec.chatTemplate()));
        }
        return kv;
    }

    private static float[] weights(String name, long[] shape, Random random) {
        float[] data = new float[(int) elements(shape)];
        if (name.endsWith("norm.weight")) {
            java.util.Arrays.fill(data, 1f);
            return data;
        }
        // Gaussian weights scaled by 1/sqrt(fan-in) keep activations in range; the output projection is scaled up
        // so the next-token distribution is peaked enough for greedy text to vary, not a flat random walk.
        double scale = name.equals("output.weight") ? 0.6 : name.equals("token_embd.weight") ? 1.0
                : 1.5 / Math.sqrt(shape[0]);
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) (random.nextGaussian() * scale);
        }
        if (name.equals("output.weight")) {
            // Damp the control and byte tokens' rows so the model mostly writes word pieces and rarely ends at
            // once; EOS stays possible, so both finish reasons occur.
            int width = (int) shape[0];
            for (int token = 0; token < 259; token++) {
                for (int j = 0; j < width; j++) {
                    data[token * width + j] *= token == EOS ? 0.3f : 0.1f;
                }
            }
        }
        return data;
    }

    private static long elements(long[] shape) {
        long e = 1;
        for (long d : shape) {
            e *= d;
        }
        return e;
    }

    private static long align(long offset) {
        return (offset + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /** A little-endian byte sink with GGUF's string and key/value encodings. */
    private static final class Writer {
        private ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);

        private void ensure(int more) {
            if (buf.remaining() < more) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + more))
                        .order(ByteOrder.LITTLE_ENDIAN);
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }

        void bytes(byte[] b) {
            ensure(b.length);
            buf.put(b);
        }

        void u32(int v) {
            ensure(4);
            buf.putInt(v);
        }

        void i32(int v) {
            u32(v);
        }

        void u64(long v) {
            ensure(8);
            buf.putLong(v);
        }

        void f32(float v) {
            ensure(4);
            buf.putFloat(v);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u64(b.length);
            bytes(b);
        }

        void key(String k) {
            string(k);
        }

        void kvString(String k, String v) {
            key(k);
            u32(T_STRING);
            string(v);
        }

        void kvU32(String k, int v) {
            key(k);
            u32(T_UINT32);
            u32(v);
        }

        void kvF32(String k, float v) {
            key(k);
            u32(T_FLOAT32);
            f32(v);
        }

        void kvBool(String k, boolean v) {
            key(k);
            u32(T_BOOL);
            ensure(1);
            buf.put((byte) (v ? 1 : 0));
        }

        /** Zero bytes up to the next aligned position (the data section and every tensor start aligned). */
        void pad() {
            int pad = (int) (align(buf.position()) - buf.position());
            ensure(pad);
            buf.put(new byte[pad]);
        }

        byte[] toByteArray() {
            byte[] out = new byte[buf.position()];
            buf.flip();
            buf.get(out);
            return out;
        }
    }
}
