package dev.veracity.rl.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.eval.metrics.ItemScore;
import dev.veracity.eval.metrics.Metrics;
import java.util.List;
import org.junit.jupiter.api.Test;

class RewardsTest {

    private static RewardResult score(String reward, String response, Label label) {
        return Rewards.byName(reward).score(RewardInput.of("q", response, label));
    }

    @Test
    void everyOfficialMetricIsARewardAndTheRegistryListsItsNames() {
        assertThat(Rewards.names()).containsAll(Metrics.names())
                .contains("accuracy", "truthrl-ternary", "truthrl-binary", "march-ztr", "march-err");
        assertThatThrownBy(() -> Rewards.byName("exact"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown reward 'exact'").hasMessageContaining("em, f1").hasMessageContaining("march-ztr");
        assertThat(Rewards.spec("march-ztr").needsModel()).isTrue();
        assertThat(Rewards.spec("em").needsModel()).isFalse();
    }

    @Test
    void aMetricRewardIsTheMetricsOwnScoreAndFields() {
        List<String> responses = List.of("the Eiffel Tower in Paris", "<think>x</think>Eiffel tower", "Paris, France",
                "All Correct Answers: [Eiffel Tower, Paris]", "\\boxed{Eiffel Tower}", "");
        Label label = new Label(List.of("Eiffel Tower", "Paris"), List.of("Lyon"), null, List.of(), null);
        for (String name : Metrics.names()) {
            for (String response : responses) {
                ItemScore want = Metrics.byName(name).score(response, label.answers(), label.wrong());
                RewardResult got = score(name, response, label);
                assertThat(got.score()).as(name + " on " + response).isEqualTo(want.score());
                assertThat(got.details()).as(name + " on " + response).isEqualTo(want.fields());
                assertThat(got.status()).isEqualTo(RewardResult.Status.OK);
            }
        }
    }

    @Test
    void accuracyIsTheSubstringRuleUnderItsPapersName() {
        Label label = Label.of("Paris");
        assertThat(score("accuracy", "It is Paris.", label).score()).isEqualTo(1.0);
        assertThat(score("accuracy", "It is Lyon.", label).score()).isEqualTo(0.0);
        assertThat(Rewards.byName("accuracy").name()).isEqualTo("accuracy");
    }

    @Test
    void truthRlTernaryAndBinaryDifferOnlyOnAbstention() {
        Label label = Label.of("Paris");
        record Case(String response, double ternary, double binary, String outcome) {
        }
        for (Case c : List.of(
                new Case("\\boxed{Paris}", 1, 1, "correct"),
                new Case("So: \\boxed{ paris. }", 1, 1, "correct"),
                new Case("\\boxed{I don't know}", 0, -1, "abstain"),
                new Case("\\boxed{London}", -1, -1, "hallucinate"),
                new Case("Paris", -1, -1, "hallucinate"),
                new Case("\\boxed{Paris", -1, -1, "hallucinate"),
                new Case("<think>\\boxed{Paris}</think>", -1, -1, "hallucinate"),
                new Case("</think>\\boxed{Paris}", 1, 1, "correct"))) {
            RewardResult t = score("truthrl-ternary", c.response(), label);
            RewardResult b = score("truthrl-binary", c.response(), label);
            assertThat(t.score()).as("ternary " + c.response()).isEqualTo(c.ternary());
            assertThat(b.score()).as("binary " + c.response()).isEqualTo(c.binary());
            assertThat(t.details().get("outcome")).as(c.response()).isEqualTo(c.outcome());
            assertThat(b.details()).isEqualTo(t.details());
        }
    }

    @Test
    void onlyTheExactMatchJudgeExistsForTruthRlSoFar() {
        assertThat(Rewards.byName("truthrl-ternary", RewardSettings.defaults().withJudge("none")).name()).isEqualTo("truthrl-ternary");
        assertThatThrownBy(() -> Rewards.byName("truthrl-binary", RewardSettings.defaults().withJudge("crag")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("judge 'crag'").hasMessageContaining("calls a model");
    }

    @Test
    void marchRewardsRefuseToBeBuiltWithoutAModel() {
        assertThatThrownBy(() -> Rewards.byName("march-ztr"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("calls a model");
    }

    @Test
    void settingsAreValidated() {
        assertThatThrownBy(() -> RewardSettings.defaults().withFallbackScore(Double.NaN)).hasMessageContaining("finite");
        assertThatThrownBy(() -> RewardSettings.defaults().withParallelism(0)).hasMessageContaining(">= 1");
    }

    @Test
    void resultsAreFiniteAndAFallbackAlwaysHasAReason() {
        assertThatThrownBy(() -> RewardResult.ok(Double.POSITIVE_INFINITY)).hasMessageContaining("finite");
        assertThatThrownBy(() -> new RewardResult(0, java.util.Map.of(), RewardResult.Status.FALLBACK, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RewardResult(0, java.util.Map.of(), RewardResult.Status.OK, "why"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
