package dev.veracity.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TokenizerTest {

    @Test
    void wordsAndPunctuationCarryLeadingWhitespace() {
        assertThat(Tokenizer.tokens("Hello, world!")).containsExactly("Hello", ",", " world", "!");
        assertThat(Tokenizer.tokens("  don't\n\tstop_now 3.14 café")).containsExactly(
                "  don", "'", "t", "\n\tstop_now", " 3", ".", "14", " café");
        assertThat(Tokenizer.tokens("a--b")).containsExactly("a", "-", "-", "b");
    }

    @Test
    void countsAndCutsIgnoreTrailingWhitespace() {
        assertThat(Tokenizer.count("")).isZero();
        assertThat(Tokenizer.count("   ")).isZero();
        assertThat(Tokenizer.count("one two  ")).isEqualTo(2);
        assertThat(Tokenizer.cutOffset("one two three", 2)).isEqualTo(7);
        assertThat(Tokenizer.cutOffset("one two three", 3)).isEqualTo(-1);
        assertThat(Tokenizer.cutOffset("one two  ", 2)).isEqualTo(-1);
        assertThat(Tokenizer.cutOffset("one", 0)).isZero();
    }

    @Test
    void streamedPiecesAreTheTokensAndJoinToTheWholeText() {
        assertThat(Tokenizer.pieces("Hello, world!")).containsExactly("Hello", ",", " world", "!");
        assertThat(Tokenizer.pieces("one two  ")).containsExactly("one", " two  ");
        assertThat(Tokenizer.pieces(" \n")).containsExactly(" \n");
        assertThat(Tokenizer.pieces("")).isEmpty();
    }

    @Test
    void surrogatePairsStayWhole() {
        assertThat(Tokenizer.tokens("hi 😀!")).containsExactly("hi", " 😀", "!");
    }

    /** The tokens as {@link Tokenizer} cut them before its ASCII table: every character asked of {@link Character}. */
    private static List<String> byCharacter(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int len = text.length();
        while (true) {
            int start = i;
            while (i < len && Character.isWhitespace(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
            }
            if (i >= len) {
                return out;
            }
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp) || cp == '_') {
                while (i < len && (Character.isLetterOrDigit(cp = text.codePointAt(i)) || cp == '_')) {
                    i += Character.charCount(cp);
                }
            }
            out.add(text.substring(start, i));
        }
    }

    @Test
    void theAsciiTableCutsAsCharacterDoes() {
        for (int c = 0; c < 0x3000; c++) {
            String t = "a" + (char) c + "b " + (char) c + " " + (char) c + (char) c;
            assertThat(Tokenizer.tokens(t)).as("U+%04X", c).isEqualTo(byCharacter(t));
        }
        SplittableRandom random = new SplittableRandom(5);
        int[] pool = {'a', 'Z', '7', '_', ' ', '\t', '\n', 0x0B, 0x1C, 0x1F, 0x7F, ',', '\'', 0xA0, 0x85, 0x2007, 0x2028,
            0x3000, 0xE9, 0x301, 0x663, 0x4E1C, 0x1D518, 0x1F600, 0xD83D, 0xDC00};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int n = random.nextInt(24);
            for (int j = 0; j < n; j++) {
                b.appendCodePoint(pool[random.nextInt(pool.length)]);
            }
            String t = b.toString();
            assertThat(Tokenizer.tokens(t)).as(t).isEqualTo(byCharacter(t));
            assertThat(Tokenizer.count(t)).as(t).isEqualTo(byCharacter(t).size());
        }
    }
}
