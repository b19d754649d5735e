package dev.veracity.rl.advantage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GRPO vectors. The GUIDE's (group [1, 0, 0, -1]) and ours, worked out from each trainer's formula:
 * [1, 1, 1, 0] has mean 0.75 and unbiased std sqrt((3 * 0.0625 + 0.5625) / 3) = 0.5, so the advantages are
 * 0.25 / (0.5 + eps) and -0.75 / (0.5 + eps).
 */
class GrpoAdvantagesTest {

    private static final double TOL = 1e-6;

    private static List<GrpoAdvantages.Sample> group(String key, Double... rewards) {
        List<GrpoAdvantages.Sample> out = new ArrayList<>();
        for (Double r : rewards) {
            out.add(new GrpoAdvantages.Sample(key, r));
        }
        return out;
    }

    private static double[] grpo(GrpoFlavor f, Double... rewards) {
        return GrpoAdvantages.compute(group("g", rewards), f, StdScaling.GROUP);
    }

    @Test
    void theGuideVectorsReproduce() {
        assertThat(grpo(GrpoFlavor.VERL, 1.0, 0.0, 0.0, -1.0)).containsExactly(new double[] {1.2247434, 0, 0, -1.2247434}, within(TOL));
        assertThat(grpo(GrpoFlavor.TRL, 1.0, 0.0, 0.0, -1.0)).containsExactly(new double[] {1.2245949, 0, 0, -1.2245949}, within(TOL));
        assertThat(grpo(GrpoFlavor.OPENRLHF, 1.0, 0.0, 0.0, -1.0)).containsExactly(new double[] {1.2247449, 0, 0, -1.2247449}, within(TOL));
    }

    @Test
    void threeRightOneWrongByHand() {
        assertThat(grpo(GrpoFlavor.VERL, 1.0, 1.0, 1.0, 0.0))
                .containsExactly(new double[] {0.25 / 0.500001, 0.25 / 0.500001, 0.25 / 0.500001, -0.75 / 0.500001}, within(1e-12));
        assertThat(grpo(GrpoFlavor.TRL, 1.0, 1.0, 1.0, 0.0))
                .containsExactly(new double[] {0.4999000, 0.4999000, 0.4999000, -1.4997001}, within(TOL));
        assertThat(grpo(GrpoFlavor.OPENRLHF, 1.0, 1.0, 1.0, 0.0))
                .containsExactly(new double[] {0.4999999990, 0.4999999990, 0.4999999990, -1.4999999970}, within(1e-9));
    }

    @Test
    void theEpsilonsAreTheTrainers() {
        assertThat(GrpoFlavor.VERL.epsilon()).isEqualTo(1e-6);
        assertThat(GrpoFlavor.TRL.epsilon()).isEqualTo(1e-4);
        assertThat(GrpoFlavor.OPENRLHF.epsilon()).isEqualTo(1e-9);
        assertThat(GrpoFlavor.of(" OpenRLHF ")).isEqualTo(GrpoFlavor.OPENRLHF);
        assertThatThrownBy(() -> GrpoFlavor.of("deepspeed")).hasMessageContaining("verl, trl, openrlhf");
    }

    @Test
    void groupsAreKeyedNotPositionalAndKeepSampleOrder() {
        List<GrpoAdvantages.Sample> s = new ArrayList<>();
        s.add(new GrpoAdvantages.Sample("a", 1.0));
        s.add(new GrpoAdvantages.Sample("b", 5.0));
        s.add(new GrpoAdvantages.Sample("a", -1.0));
        s.add(new GrpoAdvantages.Sample("b", 5.0));
        double[] adv = GrpoAdvantages.compute(s, GrpoFlavor.OPENRLHF, StdScaling.GROUP);
        double x = 1.0 / (Math.sqrt(2.0) + 1e-9);
        assertThat(adv).containsExactly(new double[] {x, 0.0, -x, 0.0}, within(1e-12));
    }

    @Test
    void aGroupOfOneAsEachTrainerTreatsIt() {
        // VeRL: mean 0, std 1
        assertThat(grpo(GrpoFlavor.VERL, 0.5)).containsExactly(new double[] {0.5 / (1 + 1e-6)}, within(1e-15));
        assertThat(GrpoAdvantages.compute(group("g", 0.5), GrpoFlavor.VERL, StdScaling.NONE)).containsExactly(0.5);
        // TRL: std 0, so (r - r) / 1e-4
        assertThat(grpo(GrpoFlavor.TRL, 0.5)).containsExactly(0.0);
        // OpenRLHF: torch.std of one value is NaN; dr_grpo is r - r
        assertThatThrownBy(() -> grpo(GrpoFlavor.OPENRLHF, 0.5)).isInstanceOf(GrpoAdvantages.Problem.class)
                .hasMessageContaining("group g has one sample").hasMessageContaining("NaN");
        assertThat(GrpoAdvantages.compute(group("g", 0.5), GrpoFlavor.OPENRLHF, StdScaling.NONE)).containsExactly(0.0);
    }

    @Test
    void anAllEqualGroupHasNoSignalInAnyFlavor() {
        for (GrpoFlavor f : GrpoFlavor.values()) {
            assertThat(grpo(f, 1.0, 1.0, 1.0)).as(f.name()).containsExactly(0.0, 0.0, 0.0);
        }
    }

    @Test
    void withoutStdTheAdvantageIsTheRewardMinusTheGroupMean() {
        for (GrpoFlavor f : GrpoFlavor.values()) {
            assertThat(GrpoAdvantages.compute(group("g", 1.0, 0.0, 0.0, -1.0, 3.0), f, StdScaling.NONE)).as(f.name())
                    .containsExactly(new double[] {0.4, -0.6, -0.6, -1.6, 2.4}, within(1e-12));
        }
    }

    @Test
    void trlLeavesANullRewardOutOfMeanAndStdAndGivesItZero() {
        // scored [1, 0, 0]: mean 1/3, std sqrt((4/9 + 1/9 + 1/9) / 2) = sqrt(1/3)
        double std = Math.sqrt(1.0 / 3.0) + 1e-4;
        assertThat(grpo(GrpoFlavor.TRL, 1.0, null, 0.0, 0.0))
                .containsExactly(new double[] {(2.0 / 3.0) / std, 0.0, (-1.0 / 3.0) / std, (-1.0 / 3.0) / std}, within(1e-12));
        // one scored sample: nanstd is NaN, every advantage nan_to_num 0; all None: the mean is NaN too
        assertThat(grpo(GrpoFlavor.TRL, 1.0, null)).containsExactly(0.0, 0.0);
        assertThat(grpo(GrpoFlavor.TRL, null, null)).containsExactly(0.0, 0.0);
        assertThatThrownBy(() -> grpo(GrpoFlavor.VERL, 1.0, null)).isInstanceOf(GrpoAdvantages.Problem.class)
                .hasMessageContaining("only TRL").extracting(e -> ((GrpoAdvantages.Problem) e).index()).isEqualTo(1);
    }

    @Test
    void trlBatchScalingDividesByTheStdOfTheWholeBatch() {
        // batch [1, 0 | 1, 1]: mean 0.75, std sqrt(0.75 / 3) = 0.5; each group keeps its own mean
        List<GrpoAdvantages.Sample> s = new ArrayList<>(group("a", 1.0, 0.0));
        s.addAll(group("b", 1.0, 1.0));
        assertThat(GrpoAdvantages.compute(s, GrpoFlavor.TRL, StdScaling.BATCH))
                .containsExactly(new double[] {0.5 / 0.5001, -0.5 / 0.5001, 0.0, 0.0}, within(1e-12));
        assertThatThrownBy(() -> GrpoAdvantages.compute(s, GrpoFlavor.VERL, StdScaling.BATCH))
                .hasMessageContaining("TRL's scale_rewards=\"batch\"");
    }
}
