package dev.veracity.eval.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Worked test vectors for the EM / F1 family. Each expected value is what the official script returns, worked
 * through by hand as the comment shows (normalised tokens, common count, precision, recall).
 */
class AnswerMetricsTest {

    private static double score(String metric, String prediction, String... gold) {
        return Metrics.byName(metric).score(prediction, Arrays.asList(gold)).score();
    }

    @Test
    void exactMatchIgnoresCasePunctuationArticlesWhiteSpace() {
        assertThat(score("em", "PARIS", "paris")).isEqualTo(1.0);
        assertThat(score("em", "The Eiffel  Tower.", "eiffel tower")).isEqualTo(1.0);
        assertThat(score("em", "Paris\u00a0France", "paris france")).isEqualTo(1.0);
        assertThat(score("em", "Paris, France", "Paris")).isEqualTo(0.0);
        // both normalise to "": equal, so EM is 1 (as in Python)
        assertThat(score("em", "the", "")).isEqualTo(1.0);
    }

    @Test
    void exactMatchTakesTheBestAlias() {
        assertThat(score("em", "JFK", "John F. Kennedy", "jfk")).isEqualTo(1.0);
        assertThat(score("em", "JFK")).isEqualTo(0.0); // no gold: 0, not an exception
        assertThat(score("em", null, "Paris")).isEqualTo(0.0);
    }

    @Test
    void f1CountsTokenBagsWithMultiplicity() {
        // pred "cat sat on mat" (4 tokens), gold "cat on mat" (3): common 3, P 3/4, R 1, F1 6/7
        assertThat(score("f1", "the cat sat on the mat", "cat on mat")).isCloseTo(6.0 / 7, within(1e-12));
        // Counter intersection: pred [cat cat dog], gold [cat cat]: common 2, P 2/3, R 1, F1 0.8
        // (a set intersection would give common 1 -> 0.4)
        assertThat(score("f1", "cat cat dog", "cat cat")).isCloseTo(0.8, within(1e-12));
        // v1.1: nothing in common -> 0, even when both sides are empty
        assertThat(score("f1", "", "")).isEqualTo(0.0);
    }

    @Test
    void f1TakesTheBestAlias() {
        // vs "obama": P 1/2, R 1 -> 2/3; vs "barack hussein obama": common 2, P 1, R 2/3 -> 0.8; max 0.8
        assertThat(score("f1", "Barack Obama", "Obama", "Barack Hussein Obama")).isCloseTo(0.8, within(1e-12));
    }

    @Test
    void hotpotF1IsZeroWhenYesNoDiffers() {
        // pred "yes" is special and differs from "yes it is": 0 (token F1 would be 0.5)
        assertThat(score("f1", "yes", "yes it is")).isEqualTo(0.0);
        // gold "no" is special, pred "no way" differs: 0 (token F1 would be 2/3)
        assertThat(score("f1", "No way", "no")).isEqualTo(0.0);
        assertThat(score("f1", "noanswer", "no answer")).isEqualTo(0.0);
        assertThat(score("f1", "Yes.", "yes")).isEqualTo(1.0);
    }

    @Test
    void musiqueUsesSquad2F1WithoutTheYesNoRule() {
        assertThat(score("musique-f1", "yes", "yes it is")).isCloseTo(0.5, within(1e-12));
        // compute_f1: both empty -> 1, one empty -> 0
        assertThat(score("musique-f1", "the", "")).isEqualTo(1.0);
        assertThat(score("musique-f1", "", "Paris")).isEqualTo(0.0);
        // best over answer + aliases
        assertThat(score("musique-f1", "Barack Obama", "Obama", "Barack Hussein Obama")).isCloseTo(0.8, within(1e-12));
        assertThat(score("musique-em", "the Beatles!", "Rolling Stones", "beatles")).isEqualTo(1.0);
    }

    @Test
    void nqEmNormalisesUnicodeToNfd() {
        // decomposed "Cafe\u0301" vs precomposed "Café": both NFD -> "cafe\u0301"; plain EM sees different strings
        assertThat(score("nq-em", "Cafe\u0301", "Caf\u00e9")).isEqualTo(1.0);
        assertThat(score("em", "Cafe\u0301", "Caf\u00e9")).isEqualTo(0.0);
        // NFD, not NFKD: the "ﬁ" ligature is not decomposed
        assertThat(score("nq-em", "\ufb01sh", "fish")).isEqualTo(0.0);
        assertThat(score("nq-em", "The Beatles", "beatles", "Fab Four")).isEqualTo(1.0);
    }

    @Test
    void triviaQaTurnsPunctuationIntoSpaces() {
        // "1 800" vs "1800": differ under TriviaQA, equal under SQuAD
        assertThat(score("triviaqa-em", "1,800", "1800")).isEqualTo(0.0);
        assertThat(score("em", "1,800", "1800")).isEqualTo(1.0);
        assertThat(score("triviaqa-em", "New_York", "new york")).isEqualTo(1.0);
        assertThat(score("em", "New_York", "new york")).isEqualTo(0.0);
        assertThat(score("triviaqa-em", "Rock\u2019n\u2019Roll", "rock n roll")).isEqualTo(1.0);
        // tokens [1 800] vs [1800]: nothing shared -> 0
        assertThat(score("triviaqa-f1", "1,800", "1800")).isEqualTo(0.0);
        // [new york city] vs [new york]: common 2, P 2/3, R 1 -> 0.8
        assertThat(score("triviaqa-f1", "New_York City", "new york")).isCloseTo(0.8, within(1e-12));
        // TriviaQA F1 has no yes/no rule: [yes] vs [yes it is] -> P 1, R 1/3 -> 0.5
        assertThat(score("triviaqa-f1", "yes", "yes it is")).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void substringMatchesNormalisedGoldInsidePrediction() {
        assertThat(score("substring", "I think it is Paris, France.", "paris")).isEqualTo(1.0);
        assertThat(score("substring", "U.S.A. is big", "USA")).isEqualTo(1.0);
        // a character substring, as in C-3PO: "paris" is inside "parisian"
        assertThat(score("substring", "a Parisian cafe", "Paris")).isEqualTo(1.0);
        assertThat(score("substring", "The capital is Lyon", "Paris", "Marseille")).isEqualTo(0.0);
        // the official rule: a gold answer that normalises to "" ("the", "A+") credits any prediction ("" in s);
        // substring:strict skips it; both count such questions
        assertThat(score("substring", "anything", "the")).isEqualTo(1.0);
        assertThat(score("substring:strict", "anything", "the")).isEqualTo(0.0);
        assertThat(score("substring:strict", "A+ grade", "A+", "grade")).isEqualTo(1.0);
        Metric official = Metrics.byName("substring");
        Aggregate a = official.aggregate(List.of(official.score("x", List.of("A+")), official.score("x", List.of("y")),
                official.score("paris", List.of("Paris"))));
        assertThat(a.mean()).isEqualTo(2.0 / 3);
        assertThat(a.extras()).containsEntry("empty_gold", 1L);
        Metric strict = Metrics.byName("substring:strict");
        assertThat(strict.aggregate(List.of(strict.score("x", List.of("A+")))).extras()).containsEntry("empty_gold", 1L);
    }

    @Test
    void everyMetricScoresThePredictionWithoutItsReasoning() {
        assertThat(score("em", "<think>Maybe London?</think>Paris", "Paris")).isEqualTo(1.0);
        assertThat(score("substring", "<think>Paris? no.</think> It is Lyon.", "Paris")).isEqualTo(0.0);
        assertThat(score("strict-multi", "<think>All Correct Answers: [1998]</think>All Correct Answers: [1963]", "1963"))
                .isEqualTo(1.0);
        assertThat(score("fever-acc", "the claim is SUPPORTS</think>REFUTES", "REFUTES")).isEqualTo(1.0);
    }

    @Test
    void feverAccuracyReadsLabelVariants() {
        assertThat(score("fever-acc", "supported", "SUPPORTS")).isEqualTo(1.0);
        assertThat(score("fever-acc", "Refuted.", "REFUTES")).isEqualTo(1.0);
        assertThat(score("fever-acc", "nei", "NOT ENOUGH INFO")).isEqualTo(1.0);
        assertThat(score("fever-acc", "Not enough information", "NOT ENOUGH INFO")).isEqualTo(1.0);
        assertThat(score("fever-acc", "NOT_ENOUGH_INFO", "NOT ENOUGH INFO")).isEqualTo(1.0);
        assertThat(score("fever-acc", "SUPPORTS", "REFUTES")).isEqualTo(0.0);
        assertThat(score("fever-acc", "maybe", "SUPPORTS")).isEqualTo(0.0);
        assertThat(score("fever-acc", null)).isEqualTo(0.0);
    }

    @Test
    void everyMetricIsTotal() {
        for (String name : Metrics.names()) {
            Metric m = Metrics.byName(name);
            assertThat(m.name()).isEqualTo(name);
            List<String> withNull = Arrays.asList(null, "", "x");
            assertThat(m.score(null, null, null).score()).isFinite();
            assertThat(m.score("", withNull, withNull).score()).isFinite();
            assertThat(m.score("\\boxed{", List.of("{"), List.of()).score()).isFinite();
        }
    }
}
