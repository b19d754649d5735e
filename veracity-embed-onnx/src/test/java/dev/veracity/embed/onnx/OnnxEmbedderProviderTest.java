package dev.veracity.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.retrieval.LocalEmbedders;
import org.junit.jupiter.api.Test;

/** With this part on the class path, the rest of Veracity finds its models through {@link LocalEmbedders}. */
class OnnxEmbedderProviderTest {

    @Test
    void thePartRegistersBgeSmallWithLocalEmbedders() {
        assertThat(LocalEmbedders.available()).isTrue();
        assertThat(LocalEmbedders.bgeSmall()).isSameAs(OnnxEmbedder.bgeSmall());
        assertThat(LocalEmbedders.byName(LocalEmbedders.BGE_SMALL, null, null)).isSameAs(OnnxEmbedder.bgeSmall());
        assertThat(LocalEmbedders.bgeSmall().name()).isEqualTo("bge-small-en-v1.5-q");
        assertThat(LocalEmbedders.bgeSmall().dimension()).isEqualTo(384);
    }
}
