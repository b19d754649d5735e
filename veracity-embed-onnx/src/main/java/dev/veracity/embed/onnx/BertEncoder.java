package dev.veracity.embed.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A BERT bi-encoder run directly on ONNX Runtime: texts tokenised by the model's HuggingFace tokenizer (DJL's binding
 * of the Rust tokenizers) and truncated to {@value #MAX_TOKENS} tokens, one text per forward pass, CLS or mean
 * pooling read straight from the output buffer.
 *
 * <p>One text per pass, not padded batches: with the int8 model's dynamic quantisation (one activation scale per
 * tensor) a text's vector would depend on the other texts of its batch (cosine 0.9965 for "Paris" batched with
 * 100-word passages), and batching saves nothing on this CPU (23 ms of CPU per 110-token text at batch 1 and 8,
 * 30 ms at 32: large batches overflow the cache).
 *
 * <p>Why not LangChain4j's {@code OnnxBertBiEncoder}, which we used before: it tokenises every text twice, copies the
 * whole hidden state into Java arrays to pool one row, and leaves ONNX Runtime's session options at their defaults:
 * a spinning intra-op pool of all cores per run, so that parallel callers fought over the cores. Texts longer than
 * the model's window are truncated, as sentence-transformers and FlashRAG do, where LangChain4j averaged the
 * embeddings of 510-token pieces.
 *
 * <p>Thread-safe: an ONNX Runtime session may run concurrently; each run uses {@code intraOpThreads} threads.
 */
final class BertEncoder implements AutoCloseable {

    /** BERT's position limit. */
    static final int MAX_TOKENS = 512;

    enum Pooling { CLS, MEAN }

    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean typeIds;
    private final Pooling pooling;

    BertEncoder(byte[] model, InputStream tokenizerJson, Pooling pooling, int intraOpThreads) {
        this.pooling = pooling;
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(1);
            this.session = env.createSession(model, options);
            this.typeIds = session.getInputNames().contains("token_type_ids");
            this.tokenizer = HuggingFaceTokenizer.newInstance(tokenizerJson, Map.of("padding", "false",
                    "truncation", "true", "maxLength", Integer.toString(MAX_TOKENS)));
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load the ONNX model: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the tokenizer: " + e.getMessage(), e);
        }
    }

    /** The texts' token ids, with the special tokens, truncated. */
    Encoding[] tokenize(List<String> texts) {
        return tokenizer.batchEncode(texts);
    }

    /** One forward pass over one text's tokens; the pooled (not normalised) vector. */
    float[] encode(Encoding text) {
        long[] shape = {1, text.getIds().length};
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(text.getIds()), shape));
            inputs.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(text.getAttentionMask()), shape));
            if (typeIds) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(text.getTypeIds()), shape));
            }
            try (OrtSession.Result result = session.run(inputs)) {
                OnnxTensor hidden = (OnnxTensor) result.get(0); // last_hidden_state [1, tokens, dim]
                long[] s = hidden.getInfo().getShape();
                return pool(hidden.getFloatBuffer(), (int) s[1], (int) s[2]);
            }
        } catch (OrtException e) {
            throw new IllegalStateException("embedding failed: " + e.getMessage(), e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    private float[] pool(FloatBuffer hidden, int tokens, int dim) {
        float[] out = new float[dim];
        if (pooling == Pooling.CLS) {
            hidden.get(0, out);
            return out;
        }
        for (int i = 0; i < tokens * dim; i++) {
            out[i % dim] += hidden.get(i);
        }
        for (int d = 0; d < dim; d++) {
            out[d] /= tokens;
        }
        return out;
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException(e);
        }
        tokenizer.close();
    }
}
