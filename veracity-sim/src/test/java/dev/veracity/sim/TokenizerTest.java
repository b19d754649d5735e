package dev.veracity.sim;

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
}
