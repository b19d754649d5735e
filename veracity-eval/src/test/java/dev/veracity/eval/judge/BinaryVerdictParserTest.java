package dev.veracity.eval.judge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class BinaryVerdictParserTest {

    private static Outcome tf(String s) {
        return BinaryVerdictParser.TRUE_FALSE.parse(s).outcome();
    }

    private static Outcome yn(String s) {
        return BinaryVerdictParser.YES_NO.parse(s).outcome();
    }

    @ParameterizedTest
    @ValueSource(strings = {"True", "True.", "true", "TRUE", " **True** ", "`True`", "\"True\"", "'True'",
            "Answer: True", "Final answer: **True**", "The answer is **True**", "### Verdict\nTrue",
            "The predicted answer matches the first correct answer. True",
            "<think>It could be false... no wait.</think>True", "Verdict - true!"})
    void readsTrue(String s) {
        assertThat(tf(s)).isEqualTo(Outcome.CORRECT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"False", "false", "False.", "**False**", "Answer: False", "Answer: false.",
            "The answer is False", "Not true", "not true.", "That is not true.", "It isn't true.",
            "This is not entirely true.",
            "Reasoning: the prediction says 1990 while the truth is 1989, which is true to the decade only.\nAnswer: False",
            "<think>the answer is true? hmm</think>\nFalse"})
    void readsFalse(String s) {
        assertThat(tf(s)).isEqualTo(Outcome.INCORRECT);
    }

    @Test
    void theLastLabelWinsAndInstructionEchoesAreIgnored() {
        assertThat(tf("My first answer: True. Re-checking the year... Final answer: False")).isEqualTo(Outcome.INCORRECT);
        assertThat(tf("Return only \"True\" or \"False\". False")).isEqualTo(Outcome.INCORRECT);
        assertThat(tf("True/False: true")).isEqualTo(Outcome.CORRECT);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "garbage", "Correct", "I cannot decide.", "untrue", "trueness", "true_answer",
            "It is not false.", "True or False?", "<think>True</think>", "!!!"})
    void unparseableNeverAnException(String s) {
        assertThat(tf(s)).isEqualTo(Outcome.UNPARSEABLE);
    }

    @Test
    void yesNo() {
        assertThat(yn("Yes")).isEqualTo(Outcome.CORRECT);
        assertThat(yn("yes.")).isEqualTo(Outcome.CORRECT);
        assertThat(yn("**Yes**, both name the same city.")).isEqualTo(Outcome.CORRECT);
        assertThat(yn("No")).isEqualTo(Outcome.INCORRECT);
        assertThat(yn("No - the years differ.")).isEqualTo(Outcome.INCORRECT);
        assertThat(yn("They differ in the year.\nAnswer: No")).isEqualTo(Outcome.INCORRECT);
        assertThat(yn("Both say Paris; there is no real difference.\nVerdict: Yes")).isEqualTo(Outcome.CORRECT);
        // "no" inside prose is not a verdict for yes/no judges
        assertThat(yn("There is no difference between them, so they match.")).isEqualTo(Outcome.UNPARSEABLE);
        assertThat(yn("Yes or No: ")).isEqualTo(Outcome.UNPARSEABLE);
        assertThat(yn("")).isEqualTo(Outcome.UNPARSEABLE);
        assertThat(yn(null)).isEqualTo(Outcome.UNPARSEABLE);
        assertThat(yn("Nobody knows")).isEqualTo(Outcome.UNPARSEABLE);
    }
}
