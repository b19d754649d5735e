package dev.veracity.cli;

import dev.veracity.llm.openai.OpenAiEmbedder;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.lucene.IndexMetadata;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where dense vectors come from, for the commands that embed passages or queries ({@code index}, {@code search},
 * {@code serve-retrieval}, and through {@link RetrievalOptions} {@code eval} and {@code ask}): the in-process model
 * (bge-small, or e5 from {@code --onnx-model}), or with {@code --embedder URL} an OpenAI-compatible embedding server.
 */
final class EmbedderOptions {

    @Option(names = "--embedder", paramLabel = "URL",
            description = "An OpenAI-compatible embedding server's base URL (vLLM, TEI, Ollama: e.g."
                    + " http://127.0.0.1:8080/v1): passages and queries are embedded there instead of in process.")
    String url;

    @Option(names = "--embedder-model", paramLabel = "NAME",
            description = "The server's embedding model (needed to index; for queries it defaults to the model the"
                    + " index was built with, which it must be).")
    String model;

    @Option(names = "--embedder-concurrency", defaultValue = "4", paramLabel = "N",
            description = "Requests in flight to the embedding server (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--embedder-query-prefix", defaultValue = "", paramLabel = "TEXT",
            description = "Put before every query sent to the server (a model's query instruction, e.g. bge's"
                    + " \"Represent this sentence for searching relevant passages: \"); passages are sent as they are.")
    String queryPrefix;

    boolean remote() {
        return url != null;
    }

    /** The server's embedder for this model (connects once, to learn the dimension). */
    OpenAiEmbedder server(String modelName) {
        if (modelName == null || modelName.isBlank()) {
            throw new IllegalArgumentException("--embedder needs --embedder-model NAME (the server's model)");
        }
        return OpenAiEmbedder.builder(url, modelName).concurrency(concurrency).queryPrefix(queryPrefix).build();
    }

    /** The embedder that fills an index: the server's with {@code --embedder}, else the in-process model. */
    Embedder forIndexing(Path onnxModel, Path tokenizer) {
        if (remote()) {
            if (onnxModel != null) {
                throw new IllegalArgumentException("--embedder and --onnx-model exclude each other: embed on the server"
                        + " or in process");
            }
            return server(model);
        }
        return onnxModel != null ? LocalEmbedders.e5(onnxModel, tokenizer) : LocalEmbedders.bgeSmall();
    }

    /**
     * The embedder for an index's queries: the server's with {@code --embedder} (its model defaults to the index's),
     * else the in-process model the index was built with.
     */
    Embedder forQueries(IndexMetadata meta, Path onnxModel, Path tokenizer) {
        if (remote()) {
            if (model != null && !model.equals(meta.embeddingModel())) {
                throw new IllegalArgumentException("this index was embedded with " + meta.embeddingModel()
                        + ", not --embedder-model " + model + ": queries must use the passages' model");
            }
            return server(meta.embeddingModel());
        }
        return LocalEmbedders.byName(meta.embeddingModel(), onnxModel, tokenizer);
    }
}
