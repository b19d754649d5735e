package dev.veracity.methods.march;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AnswerMatcherTest {

    private final AnswerMatcher authors = AnswerMatcher.authors();
    private final AnswerMatcher strict = AnswerMatcher.strict(1e-6);
    private final AnswerMatcher typed = AnswerMatcher.typed(1e-6);

    @Test
    void authorsRuleAsTheirCodeDoesIt() {
        assertThat(authors.matches("52", "52")).isTrue();
        assertThat(authors.matches("0.5", "0.55")).isTrue();
        assertThat(authors.matches("50.1", "50")).isFalse();
        assertThat(authors.matches("50", "50.0")).isTrue();
        assertThat(authors.matches("1e3", "1000")).isFalse();
        assertThat(authors.matches("1,000", "1000")).isTrue();
        assertThat(authors.matches("45%", "45")).isTrue();
        assertThat(authors.matches("10k", "10")).isTrue(); // their strip removes k: a known weakness
        assertThat(authors.matches("10k", "10000")).isFalse();
        assertThat(authors.matches("3", "4")).isFalse();
        assertThat(authors.matches("52", "Cannot answer")).isFalse();
        assertThat(authors.matches("52", "")).isFalse();
        assertThat(authors.matches("52", null)).isFalse();
        assertThat(authors.matches("fifty", "50")).isFalse();
        assertThat(authors.matches("Paris", "Paris")).isTrue();
    }

    /** Their Python is {@code abs(a - b) < 0.1}: strict, in binary floating point. */
    @Test
    void authorsToleranceIsStrict() {
        assertThat(0.2 - 0.1).isEqualTo(0.1); // exactly: only a strict < rejects this pair
        assertThat(authors.matches("0.1", "0.2")).isFalse();
        assertThat(authors.matches("0.2", "0.1")).isFalse();
        assertThat(0.6 - 0.5).isEqualTo(0.09999999999999998); // just under 0.1
        assertThat(authors.matches("0.5", "0.6")).isTrue();
        assertThat(authors.matches("0.5", "0.55")).isTrue();
        assertThat(authors.matches("50.1", "50")).isFalse(); // 0.10000000000000142
    }

    @Test
    void strictModeReadsScalesAndNotationWithRelativeTolerance() {
        assertThat(strict.matches("10k", "10000")).isTrue();
        assertThat(strict.matches("10000", "10 thousand")).isTrue();
        assertThat(strict.matches("2.5 million", "2,500,000")).isTrue();
        assertThat(strict.matches("3bn", "3000000000")).isTrue();
        assertThat(strict.matches("1e3", "1000")).isTrue();
        assertThat(strict.matches("1.2 x 10^3", "1200")).isTrue();
        assertThat(strict.matches("45%", "45")).isTrue();
        assertThat(strict.matches("45 percent", "45.0")).isTrue();
        assertThat(strict.matches("$12", "12")).isTrue();
        assertThat(strict.matches("0.5", "0.55")).isFalse();
        assertThat(strict.matches("50.1", "50")).isFalse();
        assertThat(strict.matches("10m", "10000000")).isFalse(); // "m" is a unit, not a million
        assertThat(strict.matches("52", "Cannot answer")).isFalse();
        assertThat(strict.matches("52", "fifty-two")).isFalse();
        assertThat(AnswerMatcher.strict(0.01).matches("1000", "1005")).isTrue();
        assertThat(AnswerMatcher.strict(0.001).matches("1000", "1005")).isFalse();
    }

    @Test
    void typedExtensionComparesDatesYesNoAndNames() {
        assertThat(typed.matches("1999-03-12", "March 12, 1999")).isTrue();
        assertThat(typed.matches("1999-03-12", "12 March 1999")).isTrue();
        assertThat(typed.matches("1999-03-12", "1999-03-13")).isFalse();
        assertThat(typed.matches("1999", "1999-03-12")).isTrue();
        assertThat(typed.matches("Yes", "yes.")).isTrue();
        assertThat(typed.matches("Yes", "No")).isFalse();
        assertThat(typed.matches("The Beatles", "beatles")).isTrue();
        assertThat(typed.matches("Paul McCartney", "John Lennon")).isFalse();
        assertThat(typed.matches("10k", "10000")).isTrue();
        assertThat(typed.matches("Paris", "Cannot answer")).isFalse();
    }

    @Test
    void unknownMatcherNameIsAClearError() {
        assertThatThrownBy(() -> AnswerMatcher.byName("fuzzy", 0)).hasMessageContaining("authors, strict or typed");
    }

    @Test
    void numberParserIsTotal() {
        for (String s : new String[] {null, "", "-", ".", "e5", "1e", "10-20", "NaN", "1e400", "12.3.4", "∞", "k"}) {
            assertThat(NumberParser.parse(s)).isEmpty();
        }
        assertThat(NumberParser.parse("(1,234.5)").getAsDouble()).isEqualTo(1234.5);
        assertThat(NumberParser.parse("-7").getAsDouble()).isEqualTo(-7);
    }
}
