package dev.veracity.embed.onnx;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import java.nio.file.Path;

/** Registers this module's models with {@link LocalEmbedders} (through {@code META-INF/services}). */
public final class OnnxEmbedderProvider implements LocalEmbedders.Provider {

    @Override
    public Embedder bgeSmall() {
        return OnnxEmbedder.bgeSmall();
    }

    @Override
    public Embedder e5(Path onnxModel, Path tokenizerJson) {
        return OnnxEmbedder.e5(onnxModel, tokenizerJson);
    }
}
