package dev.veracity.llm.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class TinyGgufTest {

    @Test
    void theSameSeedWritesTheSameBytesAndAnotherSeedOtherWeights() {
        byte[] a = TinyGguf.bytes(TinyGguf.Spec.tiny(1));

        assertThat(TinyGguf.bytes(TinyGguf.Spec.tiny(1))).isEqualTo(a);
        assertThat(TinyGguf.bytes(TinyGguf.Spec.tiny(2))).hasSameSizeAs(a).isNotEqualTo(a);
    }

    @Test
    void writesAGgufV3HeaderAndAnAlignedFileUnderAMegabyte() {
        byte[] a = TinyGguf.bytes(TinyGguf.Spec.tiny(1));
        ByteBuffer b = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(new String(a, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("GGUF");
        assertThat(b.getInt(4)).isEqualTo(3);
        assertThat(b.getLong(8)).isEqualTo(21);
        assertThat(a.length % TinyGguf.ALIGNMENT).isZero();
        assertThat(a.length).isLessThan(1 << 20);
    }

    @Test
    void theVocabularyHasByteFallbackTokensAndUniquePieces() {
        List<String> vocab = TinyGguf.vocabulary();

        assertThat(vocab.subList(0, 3)).containsExactly("<unk>", "<s>", "</s>");
        assertThat(vocab).contains("<0x00>", "<0x0A>", "<0xFF>", "\u2581", "a", "\u2581the");
        assertThat(new HashSet<>(vocab)).hasSameSizeAs(vocab);
    }
}
