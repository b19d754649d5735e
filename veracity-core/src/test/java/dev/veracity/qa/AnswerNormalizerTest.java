package dev.veracity.qa;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Expected strings are what the official Python functions return; each was worked through by hand, step by step,
 * as written in the comment.
 */
class AnswerNormalizerTest {

    @Test
    void squadLowersDeletesPunctuationRemovesArticlesCollapsesSpace() {
        // lower -> "the  quick, brown-fox!"; delete punctuation -> "the  quick brownfox";
        // articles -> "   quick brownfox"; split/join -> "quick brownfox"
        assertThat(AnswerNormalizer.squad("The  Quick, Brown-Fox!")).isEqualTo("quick brownfox");
        // "a" and "an" are whole words only: "anthem" and "theatre" keep their letters
        assertThat(AnswerNormalizer.squad("A cat and an Anthem at the Theatre")).isEqualTo("cat and anthem at theatre");
        // punctuation is deleted before articles are removed: "the-end" -> "theend", no article left
        assertThat(AnswerNormalizer.squad("the-end")).isEqualTo("theend");
        // only string.punctuation (ASCII) is deleted: the curly apostrophe stays
        assertThat(AnswerNormalizer.squad("Rock\u2019n\u2019Roll")).isEqualTo("rock\u2019n\u2019roll");
    }

    @Test
    void squadSplitsOnPythonWhiteSpaceIncludingNoBreakSpace() {
        // str.split() treats U+00A0, tabs and newlines as white space
        assertThat(AnswerNormalizer.squad("  Paris\t\n France\u00a0Europe ")).isEqualTo("paris france europe");
        assertThat(AnswerNormalizer.squad(null)).isEmpty();
        assertThat(AnswerNormalizer.squad(" the a an ")).isEmpty();
    }

    @Test
    void articleBoundaryIsUnicodeLikePython3() {
        // Python 3 \b is Unicode: "é" is a word character, so "the" inside "éthe" is not a word
        assertThat(AnswerNormalizer.squad("\u00c9the")).isEqualTo("\u00e9the");
        // "an" is tried after "a" fails its \b: "an apple" -> " apple"
        assertThat(AnswerNormalizer.squad("an apple")).isEqualTo("apple");
        // digits are word characters: "the1" is not the article
        assertThat(AnswerNormalizer.squad("the1 a2")).isEqualTo("the1 a2");
    }

    @Test
    void triviaQaReplacesPunctuationAndUnderscoreBySpace() {
        // "1,800": punctuation -> space -> "1 800" (SQuAD deletes it -> "1800")
        assertThat(AnswerNormalizer.triviaQa("1,800")).isEqualTo("1 800");
        assertThat(AnswerNormalizer.squad("1,800")).isEqualTo("1800");
        // underscore -> space first, then lower
        assertThat(AnswerNormalizer.triviaQa("New_York")).isEqualTo("new york");
        // "the-end" -> "the end" -> " end" -> "end": the article is now a separate word
        assertThat(AnswerNormalizer.triviaQa("the-end")).isEqualTo("end");
        // TriviaQA's extra punctuation: ‘ ’ ´ `
        assertThat(AnswerNormalizer.triviaQa("Rock\u2019n\u2019Roll")).isEqualTo("rock n roll");
    }

    @Test
    void nqOpenAppliesNfdFirst() {
        // precomposed é (U+00E9) becomes e + U+0301; the decomposed input is already that
        assertThat(AnswerNormalizer.nqOpen("Caf\u00e9")).isEqualTo("cafe\u0301");
        assertThat(AnswerNormalizer.nqOpen("Cafe\u0301")).isEqualTo("cafe\u0301");
        assertThat(AnswerNormalizer.squad("Caf\u00e9")).isEqualTo("caf\u00e9");
    }
}
