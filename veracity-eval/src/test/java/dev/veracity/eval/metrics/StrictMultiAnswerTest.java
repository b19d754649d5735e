package dev.veracity.eval.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Worked by hand: answers normalised with SQuAD's rule, then matched by containment either way. */
class StrictMultiAnswerTest {

    private final StrictMultiAnswer metric = new StrictMultiAnswer();
    private final List<String> gold = List.of("Michael Jordan", "Michael B. Jordan");
    private final List<String> wrong = List.of("Michael I. Jordan");

    @Test
    void allGoldNoWrongIsStrictlyCorrect() {
        // pred {michael jordan, michael b jordan}; "michael i jordan" contains neither and neither contains it
        ItemScore s = metric.score("All Correct Answers: [Michael Jordan, Michael B. Jordan]", gold, wrong);
        assertThat(s.score()).isEqualTo(1.0);
        assertThat(s.fields()).containsEntry("precision", 1.0).containsEntry("recall", 1.0).containsEntry("f1", 1.0);
    }

    @Test
    void aWrongAnswerPresentFailsStrictAndLowersPrecision() {
        // 3 predicted, 2 match gold: P 2/3, R 1, F1 0.8; the wrong one is matched -> strict 0
        ItemScore s = metric.score("All Correct Answers: [\"Michael Jordan\", \"Michael B. Jordan\", \"Michael I. Jordan\"]",
                gold, wrong);
        assertThat(s.score()).isEqualTo(0.0);
        assertThat((double) s.fields().get("precision")).isCloseTo(2.0 / 3, within(1e-12));
        assertThat((double) s.fields().get("f1")).isCloseTo(0.8, within(1e-12));
        assertThat(s.fields()).containsEntry("wrong_matched", true);
    }

    @Test
    void aMissingGoldFailsStrict() {
        // "michael jordan" does not contain "michael b jordan": R 1/2, P 1, F1 2/3
        ItemScore s = metric.score("All Correct Answers: [Michael Jordan]", gold, wrong);
        assertThat(s.score()).isEqualTo(0.0);
        assertThat((double) s.fields().get("recall")).isEqualTo(0.5);
        assertThat((double) s.fields().get("f1")).isCloseTo(2.0 / 3, within(1e-12));
    }

    @Test
    void containmentEitherWayMatches() {
        ItemScore s = metric.score("[The Eiffel Tower in Paris]", List.of("Eiffel Tower"), List.of());
        assertThat(s.score()).isEqualTo(1.0);
    }

    @Test
    void emptyPredictionScoresZeroAndAggregateIsTheMean() {
        ItemScore empty = metric.score("All Correct Answers: []", gold, wrong);
        assertThat(empty.score()).isEqualTo(0.0);
        assertThat(empty.fields()).containsEntry("precision", 0.0).containsEntry("recall", 0.0).containsEntry("f1", 0.0);
        ItemScore full = metric.score("All Correct Answers: [Michael Jordan, Michael B. Jordan]", gold, wrong);
        Aggregate a = metric.aggregate(List.of(empty, full));
        assertThat(a.n()).isEqualTo(2);
        assertThat(a.mean()).isEqualTo(0.5);
        assertThat(a.extras()).containsEntry("precision", 0.5).containsEntry("recall", 0.5).containsEntry("f1", 0.5);
    }
}
