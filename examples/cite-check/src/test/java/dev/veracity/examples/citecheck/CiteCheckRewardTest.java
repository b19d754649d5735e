package dev.veracity.examples.citecheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.qa.Document;
import dev.veracity.rl.reward.Label;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.reward.RewardInput;
import dev.veracity.rl.reward.Rewards;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reward, found by name in Veracity's registry as the built-in ones are (this jar's services file). */
class CiteCheckRewardTest {

    private final Reward reward = Rewards.byName("cite-check");
    private final Label paris = Label.of("Paris");

    private double score(String response, Label label) {
        return reward.score(RewardInput.of("Which city is the Eiffel Tower in?", response, label)).score();
    }

    @Test
    void theRegistryListsItBesideTheBuiltInOnes() {
        assertThat(Rewards.names()).contains("cite-check", "em", "truthrl-ternary");
        assertThat(reward.name()).isEqualTo("cite-check");
    }

    @Test
    void correctAndCitedIsOneUnknownIsZeroTheRestMinusOne() {
        assertThat(score("Answer: Paris\nEvidence: [2]", paris)).isEqualTo(1.0);
        assertThat(score("Answer: unknown\nEvidence: []", paris)).isEqualTo(0.0);
        assertThat(score("Answer: Rome\nEvidence: [1]", paris)).as("wrong").isEqualTo(-1.0);
        assertThat(score("Answer: Paris", paris)).as("right but uncited").isEqualTo(-1.0);
        assertThat(score("Paris.", paris)).as("unreadable").isEqualTo(-1.0);
        assertThat(score("<think>x</think>Answer: the Paris\nEvidence: [1]", paris)).as("SQuAD normalisation").isEqualTo(1.0);
    }

    @Test
    void withThePassagesInTheLabelTheCitedOneMustContainTheAnswer() {
        Label withDocs = paris.withDocuments(List.of(Document.of("d1", "", "The Colosseum is in Rome."),
                Document.of("d2", "", "The Eiffel Tower is in Paris.")));
        assertThat(score("Answer: Paris\nEvidence: [2]", withDocs)).isEqualTo(1.0);
        assertThat(score("Answer: Paris\nEvidence: [1]", withDocs)).as("cites a passage without it").isEqualTo(-1.0);
        assertThat(score("Answer: Paris\nEvidence: [7]", withDocs)).as("cites a passage not shown").isEqualTo(-1.0);
    }
}
