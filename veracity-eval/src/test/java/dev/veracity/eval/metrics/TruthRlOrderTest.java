package dev.veracity.eval.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.eval.metrics.TruthRlOrder.Decided;
import dev.veracity.eval.metrics.TruthRlOrder.GoldVerdict;
import dev.veracity.eval.metrics.TruthRlOrder.Kind;
import dev.veracity.eval.metrics.TruthRlOrder.Order;
import dev.veracity.qa.Abstention;
import dev.veracity.qa.BoxedAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TruthRL's two orders, as the authors' code runs them (evaluation/evaluate.py, training/.../truthrl_qa.py), against a
 * scripted judge that records what it was asked.
 */
class TruthRlOrderTest {

    /** A judge with a verdict per (answer, gold), INCORRECT for anything else; every question it was asked is kept. */
    private static final class Scripted implements TruthRlOrder.GoldJudge {
        final Map<String, GoldVerdict> verdicts;
        final List<String> asked = new ArrayList<>();

        Scripted(Map<String, GoldVerdict> verdicts) {
            this.verdicts = verdicts;
        }

        @Override
        public GoldVerdict judge(String answer, String gold, int index) {
            asked.add(answer + " | " + gold + " | " + index);
            return verdicts.getOrDefault(answer + " | " + gold, GoldVerdict.INCORRECT);
        }
    }

    private static TruthRlOrder.Graded eval(String response, List<String> gold, TruthRlOrder.GoldJudge judge) {
        return TruthRlOrder.grade(Abstention.ofBoxed(response, BoxedAnswer.DEFAULT), gold, Order.EVALUATION, judge);
    }

    @Test
    void evaluationGoesGoldByGoldSoALaterExactMatchComesAfterEarlierJudgeCalls() {
        Scripted judge = new Scripted(Map.of());
        TruthRlOrder.Graded g = eval("\\boxed{NYC}", List.of("New York City", "nyc"), judge);
        assertThat(g).isEqualTo(new TruthRlOrder.Graded(Kind.CORRECT, Decided.EM, 1));
        // the first gold was judged (no), then the second matched exactly; the judge sees both in lower case
        assertThat(judge.asked).containsExactly("nyc | new york city | 0");
    }

    @Test
    void anExactMatchIsNeverOverruledAndAJudgeYesStopsTheLoop() {
        Scripted judge = new Scripted(Map.of("w shakespeare | william shakespeare", GoldVerdict.CORRECT));
        assertThat(eval("\\boxed{William Shakespeare}", List.of("william shakespeare"), judge))
                .isEqualTo(new TruthRlOrder.Graded(Kind.CORRECT, Decided.EM, 0));
        assertThat(judge.asked).isEmpty();
        assertThat(eval("\\boxed{W Shakespeare}", List.of("shakespeare, william", "William Shakespeare", "Shakespeare"),
                judge)).isEqualTo(new TruthRlOrder.Graded(Kind.CORRECT, Decided.JUDGE, 2));
        assertThat(judge.asked).containsExactly("w shakespeare | shakespeare, william | 0",
                "w shakespeare | william shakespeare | 1");
        judge.asked.clear();
        assertThat(eval("\\boxed{Marlowe}", List.of("william shakespeare", "shakespeare"), judge))
                .isEqualTo(new TruthRlOrder.Graded(Kind.WRONG, Decided.JUDGE, 2));
        assertThat(judge.asked).hasSize(2);
    }

    @Test
    void noBoxAbstentionAndAFalsePremiseCallOnAValidQuestionNeverReachTheJudge() {
        Scripted judge = new Scripted(Map.of());
        assertThat(eval("Paris", List.of("Paris"), judge)).isEqualTo(new TruthRlOrder.Graded(Kind.NO_ANSWER, Decided.NO_BOX, 0));
        assertThat(eval("\\boxed{I don't know}", List.of("Paris"), judge))
                .isEqualTo(new TruthRlOrder.Graded(Kind.ABSTAIN, Decided.ABSTAIN, 0));
        assertThat(eval("\\boxed{invalid question}", List.of("Paris", "the city of Paris"), judge))
                .isEqualTo(new TruthRlOrder.Graded(Kind.WRONG, Decided.INVALID, 0));
        assertThat(judge.asked).isEmpty();
        // against a gold that is "invalid question" the call is right (exactly, or however worded)
        assertThat(eval("\\boxed{invalid question}", List.of("invalid question"), judge).kind()).isEqualTo(Kind.CORRECT);
        assertThat(eval("\\boxed{the premise is false}", List.of("invalid question"), judge).kind()).isEqualTo(Kind.CORRECT);
        // a gold that explains the false premise in words is the judge's to compare, as in the authors' code
        eval("\\boxed{invalid question}", List.of("invalid question: he never won it"), judge);
        assertThat(judge.asked).containsExactly("invalid question | invalid question: he never won it | 0");
        // an answer (not a false-premise call) to a false-premise question is judged too (their Einstein example)
        judge.asked.clear();
        eval("\\boxed{He never won one}", List.of("invalid question"), judge);
        assertThat(judge.asked).containsExactly("he never won one | invalid question | 0");
    }

    @Test
    void aVerdictThatCannotBeReadLeavesTheResponseUnjudgedUnlessAnotherGoldIsCorrect() {
        TruthRlOrder.GoldJudge unread = (a, g, i) -> g.equals("b") ? GoldVerdict.UNREAD : GoldVerdict.INCORRECT;
        assertThat(eval("\\boxed{x}", List.of("a", "b"), unread)).isEqualTo(new TruthRlOrder.Graded(Kind.UNJUDGED, Decided.JUDGE, 2));
        TruthRlOrder.GoldJudge laterYes = (a, g, i) -> g.equals("b") ? GoldVerdict.UNREAD : GoldVerdict.CORRECT;
        assertThat(eval("\\boxed{x}", List.of("b", "c"), laterYes).kind()).isEqualTo(Kind.CORRECT);
        // without a judge, exact match decides
        assertThat(eval("\\boxed{x}", List.of("a"), null)).isEqualTo(new TruthRlOrder.Graded(Kind.WRONG, Decided.EM, 0));
    }

    @Test
    void trainingCallsAFalsePremiseWrongOutrightAndMatchesEveryGoldBeforeTheJudge() {
        Scripted judge = new Scripted(Map.of());
        TruthRlOrder.Graded invalid = TruthRlOrder.grade(Abstention.ofBoxed("\\boxed{invalid question}", BoxedAnswer.DEFAULT),
                List.of("invalid question"), Order.TRAINING, judge);
        assertThat(invalid).isEqualTo(new TruthRlOrder.Graded(Kind.WRONG, Decided.INVALID, 0));
        TruthRlOrder.Graded em = TruthRlOrder.grade(Abstention.ofBoxed("\\boxed{NYC}", BoxedAnswer.DEFAULT),
                List.of("New York City", "nyc"), Order.TRAINING, judge);
        assertThat(em).isEqualTo(new TruthRlOrder.Graded(Kind.CORRECT, Decided.EM, 0));
        assertThat(judge.asked).isEmpty();
        TruthRlOrder.grade(Abstention.ofBoxed("\\boxed{Big Apple}", BoxedAnswer.DEFAULT), List.of("New York City"),
                Order.TRAINING, judge);
        assertThat(judge.asked).containsExactly("Big Apple | New York City | 0"); // as sent, not lower-cased
    }

    @Test
    void theJudgedMetricKeepsWhatDecidedAndReadsItBackWithoutTheJudge() {
        JudgedMetric t = (JudgedMetric) Metrics.byName("truthfulness-answer");
        Scripted judge = new Scripted(Map.of("universal | universal pictures", GoldVerdict.CORRECT));
        ItemScore s = t.score("Universal", List.of("Universal Pictures"), judge);
        assertThat(s.score()).isEqualTo(1.0);
        assertThat(s.fields()).containsEntry("outcome", "correct").containsEntry("decided_by", "judge")
                .containsEntry("judged", true).containsEntry("judge_calls", 1);
        // what a result line keeps is read back as it was, with no judge at hand
        assertThat(t.stored(s.fields())).hasValue(s);
        assertThat(t.stored(Map.of("outcome", "correct", "decided_by", "em"))).isEmpty(); // an unjudged line: re-scored
        ItemScore unjudged = t.score("Lyon", List.of("Paris"), (a, g, i) -> GoldVerdict.UNREAD);
        assertThat(unjudged.counted()).isFalse();
        assertThat(t.aggregate(List.of(s, unjudged)).extras()).containsEntry("accuracy", 1.0).containsEntry("unjudged", 1L);
    }
}
