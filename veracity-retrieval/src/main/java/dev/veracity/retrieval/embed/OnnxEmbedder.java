package dev.veracity.retrieval.embed;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.veracity.retrieval.Embedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A bi-encoder on ONNX Runtime (via LangChain4j) with the model's query and passage prefixes. {@link #embed} embeds
 * passages; {@link #embedQuery} a query. Vectors are L2-normalised so that dot product equals cosine.
 *
 * <p>Default: bge-small-en-v1.5, quantised, loaded from the LangChain4j jar; BGE recommends the instruction
 * {@value #BGE_QUERY_PREFIX} before short queries and nothing before passages. e5-small-v2 needs {@code "query: "} and
 * {@code "passage: "}; its LangChain4j jar is not in our Maven mirror, so {@link #e5(Path, Path)} loads the user's
 * ONNX export and {@code tokenizer.json} (mean pooling, as e5 is trained).
 *
 * <p>Thread-safe: ONNX sessions allow concurrent inference. {@link #embed} splits large inputs into batches run in
 * parallel on all cores.
 */
public final class OnnxEmbedder implements Embedder {

    public static final String BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";
    public static final String BGE_SMALL = "bge-small-en-v1.5-q";
    public static final String E5_SMALL = "e5-small-v2";

    private static final int BATCH = 32;

    private final String name;
    private final EmbeddingModel model;
    private final String queryPrefix;
    private final String passagePrefix;
    private final int dimension;
    private final ExecutorService pool;

    private OnnxEmbedder(String name, EmbeddingModel model, String queryPrefix, String passagePrefix) {
        this.name = name;
        this.model = model;
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
        this.dimension = model.dimension();
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "veracity-embed");
            t.setDaemon(true);
            return t;
        });
    }

    /** bge-small-en-v1.5 (quantised, 384 dimensions) from the jar: no download, no file. */
    public static OnnxEmbedder bgeSmall() {
        // A direct executor: we parallelise over batches ourselves rather than per text inside LangChain4j.
        return new OnnxEmbedder(BGE_SMALL, new BgeSmallEnV15QuantizedEmbeddingModel(Runnable::run), BGE_QUERY_PREFIX, "");
    }

    /** e5-small-v2 from the user's ONNX model and HuggingFace {@code tokenizer.json}, with e5's prefixes. */
    public static OnnxEmbedder e5(Path onnxModel, Path tokenizerJson) {
        for (Path p : List.of(onnxModel, tokenizerJson)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("e5 model file not found: " + p
                        + " (give an ONNX export of intfloat/e5-small-v2 and its tokenizer.json)");
            }
        }
        return new OnnxEmbedder(E5_SMALL, new OnnxEmbeddingModel(onnxModel, tokenizerJson, PoolingMode.MEAN, Runnable::run),
                "query: ", "passage: ");
    }

    /** The embedder an index was built with, by the name stored in its metadata. */
    public static OnnxEmbedder byName(String name, Path onnxModel, Path tokenizerJson) {
        if (BGE_SMALL.equals(name)) {
            return bgeSmall();
        }
        if (E5_SMALL.equals(name)) {
            if (onnxModel == null || tokenizerJson == null) {
                throw new IllegalArgumentException("This index was embedded with e5-small-v2: give --onnx-model and --tokenizer");
            }
            return e5(onnxModel, tokenizerJson);
        }
        throw new IllegalArgumentException("Unknown embedding model '" + name + "': use " + BGE_SMALL + " or " + E5_SMALL);
    }

    public String name() {
        return name;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    /** The query's vector, with the model's query prefix. */
    public float[] embedQuery(String query) {
        return embedBatch(List.of(queryPrefix + query)).getFirst();
    }

    /** Passage vectors (with the passage prefix), in order; batches run in parallel on all cores. */
    @Override
    public List<float[]> embed(List<String> texts) {
        List<String> prefixed = passagePrefix.isEmpty() ? texts : texts.stream().map(t -> passagePrefix + t).toList();
        if (prefixed.size() <= BATCH) {
            return embedBatch(prefixed);
        }
        List<Future<List<float[]>>> futures = new ArrayList<>();
        for (int i = 0; i < prefixed.size(); i += BATCH) {
            List<String> batch = prefixed.subList(i, Math.min(prefixed.size(), i + BATCH));
            futures.add(pool.submit(() -> embedBatch(batch)));
        }
        List<float[]> out = new ArrayList<>(texts.size());
        try {
            for (Future<List<float[]>> f : futures) {
                out.addAll(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while embedding", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("embedding failed: " + e.getCause().getMessage(), e.getCause());
        }
        return out;
    }

    private List<float[]> embedBatch(List<String> texts) {
        List<TextSegment> segments = texts.stream().map(t -> TextSegment.from(t.isBlank() ? "." : t)).toList();
        List<Embedding> embeddings = model.embedAll(segments).content();
        List<float[]> out = new ArrayList<>(embeddings.size());
        for (Embedding e : embeddings) {
            out.add(normalise(e.vector()));
        }
        return out;
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
