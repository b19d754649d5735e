package dev.veracity.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class UnicodeTest {

    @Test
    void replacesLoneSurrogatesAndKeepsPairs() {
        assertThat(Unicode.repair("a\ud800b")).isEqualTo("a\uFFFDb");
        assertThat(Unicode.repair("a\udc00b")).isEqualTo("a\uFFFDb");
        assertThat(Unicode.repair("\ud800")).isEqualTo("\uFFFD");
        assertThat(Unicode.repair("x\ud83d")).isEqualTo("x\uFFFD");
        assertThat(Unicode.repair("\udc00\ud800")).isEqualTo("\uFFFD\uFFFD");
        assertThat(Unicode.repair("\ud800\ud83d\ude00")).isEqualTo("\uFFFD\ud83d\ude00");
        assertThat(Unicode.repair("ok \ud83d\ude00 \ud800")).isEqualTo("ok \ud83d\ude00 \uFFFD");
        assertThat(Unicode.repair(null)).isNull();
    }

    @Test
    void wellFormedTextIsReturnedAsTheSameInstance() {
        String clean = "plain, é, \ud83d\ude00, 中文";
        assertThat(Unicode.repair(clean)).isSameAs(clean);
        String empty = "";
        assertThat(Unicode.repair(empty)).isSameAs(empty);
        assertThat(Unicode.isWellFormed(clean)).isTrue();
        assertThat(Unicode.isWellFormed("a\ud800")).isFalse();
    }

    @Property
    void theRepairIsWellFormedIdempotentAndChangesOnlyLoneSurrogates(@ForAll("utf16") String s)
            throws CharacterCodingException {
        String r = Unicode.repair(s);

        assertThat(r).hasSameSizeAs(s);
        assertThat(Unicode.isWellFormed(r)).isTrue();
        assertThat(Unicode.repair(r)).isSameAs(r);
        // Has a UTF-8 form: a strict encoder accepts it and decoding gives it back unchanged.
        ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(r));
        byte[] utf8 = new byte[encoded.remaining()];
        encoded.get(utf8);
        assertThat(new String(utf8, StandardCharsets.UTF_8)).isEqualTo(r);
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) != r.charAt(i)) {
                assertThat(Character.isSurrogate(s.charAt(i))).isTrue();
                assertThat(r.charAt(i)).isEqualTo(Unicode.REPLACEMENT);
            }
        }
        if (Unicode.isWellFormed(s)) {
            assertThat(r).isSameAs(s);
        }
    }

    @Provide
    Arbitrary<String> utf16() {
        // Mostly ASCII, with surrogates of both halves mixed in so that pairs and lone halves both occur.
        return Arbitraries.strings().withChars('a', 'b', ' ', 'é', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d',
                '\ude00').ofMaxLength(24);
    }
}
