package dev.veracity.llm.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading and checking GGUF headers, on files written by {@link TinyGguf}. */
class GgufMetadataTest {

    @TempDir
    Path dir;

    @Test
    void readsTheTinyModelsMetadata() throws IOException {
        GgufMetadata m = GgufMetadata.read(TinyGguf.write(dir, 3));

        assertThat(m.version()).isEqualTo(3);
        assertThat(m.tensorCount()).isEqualTo(2 + 2 * 9 + 1);
        assertThat(m.architecture()).contains("llama");
        assertThat(m.contextLength()).hasValue(2048);
        assertThat(m.integer("llama.block_count")).hasValue(2);
        assertThat(m.values().get("llama.attention.layer_norm_rms_epsilon")).isEqualTo((double) 1e-5f);
        assertThat(m.values().get("tokenizer.ggml.tokens"))
                .isEqualTo(new GgufMetadata.ArrayValue(8, TinyGguf.vocabulary().size()));
        assertThat(m.addsBos()).isTrue();
        assertThat(m.addsEos()).isFalse();
        assertThat(m.chatTemplate()).isEmpty();
    }

    @Test
    void readsAnEmbeddedChatTemplate() throws IOException {
        Path f = TinyGguf.write(dir.resolve("t.gguf"), TinyGguf.Spec.tiny(3).withChatTemplate("{{ messages }}"));

        assertThat(GgufMetadata.read(f).chatTemplate()).contains("{{ messages }}");
    }

    @Test
    void namesWhatIsWrongWithABadFile() throws IOException {
        byte[] good = TinyGguf.bytes(TinyGguf.Spec.tiny(3));

        assertThatThrownBy(() -> GgufMetadata.read(Files.writeString(dir.resolve("a"), "hello world")))
                .hasMessageContaining("not a GGUF model");
        assertThatThrownBy(() -> GgufMetadata.read(Files.write(dir.resolve("b"), "lmgg0000".getBytes())))
                .hasMessageContaining("old GGML file");
        byte[] v9 = good.clone();
        ByteBuffer.wrap(v9).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 9);
        assertThatThrownBy(() -> GgufMetadata.read(Files.write(dir.resolve("c"), v9)))
                .hasMessageContaining("unsupported GGUF version 9");
        assertThatThrownBy(() -> GgufMetadata.read(Files.write(dir.resolve("d"), Arrays.copyOf(good, 5000))))
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> GgufMetadata.read(Files.write(dir.resolve("e"), Arrays.copyOf(good, good.length - 4))))
                .hasMessageContaining("tensor 'output.weight'").hasMessageContaining("truncated");
    }
}
