package dev.veracity.eval.judge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ScoreJsonParserTest {

    private static Outcome outcome(String s) {
        return ScoreJsonParser.parse(s).outcome();
    }

    @Test
    void plainBlob() {
        Parsed p = ScoreJsonParser.parse("{\"explanation\": \"matches\", \"score\": 1}");
        assertThat(p.outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(p.explanation()).isEqualTo("matches");
        assertThat(p.rule()).isEqualTo("json");
        assertThat(outcome("{\"explanation\": \"no\", \"score\": 0}")).isEqualTo(Outcome.INCORRECT);
    }

    @Test
    void verbosePreambleCodeFenceAndTrailingText() {
        String s = """
                Let me think about this. The ground truth is {Paris} and the prediction says Paris.
                ```json
                {
                  "explanation": "The prediction exactly matches.",
                  "score": 1
                }
                ```
                I hope this helps! Let me know if you need anything else.""";
        Parsed p = ScoreJsonParser.parse(s);
        assertThat(p.outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(p.explanation()).isEqualTo("The prediction exactly matches.");
    }

    @Test
    void theLastBlockCounts() {
        assertThat(outcome("First guess: {\"explanation\": \"a\", \"score\": 1}\nOn reflection: "
                + "{\"explanation\": \"b\", \"score\": 0}")).isEqualTo(Outcome.INCORRECT);
        assertThat(outcome("{\"score\": 0} wait, actually {\"score\": 1} and {\"note\": \"no score here\"}"))
                .isEqualTo(Outcome.CORRECT);
    }

    @Test
    void echoedExamplesBeforeTheAnswerDoNotCount() {
        String s = "Example: {\"explanation\": \"x\", \"score\": 1}\nOutput: {\"explanation\": \"wrong year\", \"score\": 0}";
        assertThat(ScoreJsonParser.parse(s).explanation()).isEqualTo("wrong year");
        assertThat(outcome(s)).isEqualTo(Outcome.INCORRECT);
    }

    @Test
    void bracesAndQuotesInsideTheExplanation() {
        assertThat(outcome("{\"explanation\": \"the set {a, b} } is right, it's \\\"fine\\\"\", \"score\": 1}"))
                .isEqualTo(Outcome.CORRECT);
        assertThat(outcome("{\"explanation\": \"it's the wrong {year}\", \"score\": 0}")).isEqualTo(Outcome.INCORRECT);
    }

    @Test
    void nestedBlocks() {
        assertThat(outcome("{\"result\": {\"explanation\": \"ok\", \"score\": 1}}")).isEqualTo(Outcome.CORRECT);
        assertThat(outcome("{\"score\": 0, \"detail\": {\"score\": 1}}")).isEqualTo(Outcome.INCORRECT);
    }

    @Test
    void tolerantScoreValuesAndSyntax() {
        assertThat(outcome("{'explanation': 'single quotes', 'score': 1}")).isEqualTo(Outcome.CORRECT);
        assertThat(outcome("{explanation: \"unquoted\", score: 0,}")).isEqualTo(Outcome.INCORRECT);
        assertThat(outcome("{\"score\": \"1\"}")).isEqualTo(Outcome.CORRECT);
        assertThat(outcome("{\"score\": \"0\"}")).isEqualTo(Outcome.INCORRECT);
        assertThat(outcome("{\"score\": true}")).isEqualTo(Outcome.CORRECT);
        assertThat(outcome("{\"score\": false}")).isEqualTo(Outcome.INCORRECT);
        assertThat(outcome("{\"score\": 1.0}")).isEqualTo(Outcome.CORRECT);
        assertThat(outcome("{\"score\": \"True\"}")).isEqualTo(Outcome.CORRECT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"score\": 0.5}", "{\"score\": 2}", "{\"score\": \"yes\"}", "{\"score\": null}",
            "{\"score\": [1]}", "{\"score\": 1} then {\"score\": 7}"})
    void unreadableScoreIsUnparseable(String s) {
        assertThat(outcome(s)).isEqualTo(Outcome.UNPARSEABLE);
    }

    @Test
    void conservativeFallbackWhenNoBlockParses() {
        Parsed p = ScoreJsonParser.parse("{\"explanation\": \"He said \"yes\" loudly\", \"score\": 1");
        assertThat(p.outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(p.rule()).isEqualTo("fallback");
        assertThat(outcome("explanation: wrong answer\nscore: 0")).isEqualTo(Outcome.INCORRECT);
        assertThat(outcome("'score' = '1'")).isEqualTo(Outcome.CORRECT);
        // not a score: a digit run, a decimal, another key
        assertThat(outcome("score: 10")).isEqualTo(Outcome.UNPARSEABLE);
        assertThat(outcome("score: 0.7")).isEqualTo(Outcome.UNPARSEABLE);
        assertThat(outcome("\"subscore\": 1")).isEqualTo(Outcome.UNPARSEABLE);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "garbage", "The prediction is correct.", "{", "}{", "{{{{", "{\"explanation\": \"x\"}",
            "[1, 0]", "\u0000\u0001{\"sc", "score", "Score: high"})
    void garbageIsUnparseableNeverAnException(String s) {
        assertThat(outcome(s)).isEqualTo(Outcome.UNPARSEABLE);
    }

    @Test
    void hugeAndHostileInputsStayTotal() {
        assertThat(outcome("{".repeat(5000) + "}".repeat(10))).isEqualTo(Outcome.UNPARSEABLE);
        assertThat(outcome("\"".repeat(1000) + "{\"score\": 1}")).isIn(Outcome.values());
        assertThat(outcome("x".repeat(100_000) + "{\"score\": 0}")).isEqualTo(Outcome.INCORRECT);
    }

    /**
     * Changed for linear time: a block nested deeper than {@link ScoreJsonParser#MAX_DEPTH} (64, was Jackson's 1000)
     * is not read as JSON, so this one, read as "json" before, now goes to the fallback, which reads the same score.
     */
    @Test
    void blocksNestedTooDeepAreNotRead() {
        Parsed p = ScoreJsonParser.parse("{\"score\": 1, \"x\": " + "[".repeat(70) + "]".repeat(70) + "}");
        assertThat(p.outcome()).isEqualTo(Outcome.CORRECT);
        assertThat(p.rule()).isEqualTo("fallback");
        assertThat(ScoreJsonParser.parse("{\"score\": 1, \"x\": " + "[".repeat(60) + "]".repeat(60) + "}").rule())
                .isEqualTo("json");
    }
}
