package dev.veracity.eval.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Random strings over a hostile alphabet: every parser gives a typed result and never throws. */
class ParserFuzzTest {

    private static final String[] PIECES = {"{", "}", "\"", "'", ":", ",", "score", "\"score\"", "1", "0", "0.5",
            "true", "false", "True", "False", "yes", "no", "not ", "Answer:", "```json", "\n", " ", "\\", "<think>",
            "</think>", "**", "#", "explanation", "null", "[", "]", "\u0000", "\u2019", "n't "};

    @Test
    void parsersAreTotal() {
        Random r = new Random(42);
        for (int i = 0; i < 3000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = r.nextInt(40);
            for (int j = 0; j < len; j++) {
                sb.append(PIECES[r.nextInt(PIECES.length)]);
            }
            String s = sb.toString();
            assertThat(ScoreJsonParser.parse(s).outcome()).as(s).isNotNull();
            assertThat(BinaryVerdictParser.TRUE_FALSE.parse(s).outcome()).as(s).isNotNull();
            assertThat(BinaryVerdictParser.YES_NO.parse(s).outcome()).as(s).isNotNull();
        }
    }
}
