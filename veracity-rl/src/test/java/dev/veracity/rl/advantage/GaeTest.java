package dev.veracity.rl.advantage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GAE vectors: the GUIDE's, and two worked out by hand from the recursion delta_t = r_t + gamma V_{t+1} - V_t,
 * A_t = delta_t + gamma lambda A_{t+1}:
 * <ul>
 *   <li>gamma 0.99, lambda 0.95, r [0, 0.5, 1], V [0.2, 0.4, 0.1]: A_2 = 1 - 0.1 = 0.9;
 *       A_1 = (0.5 + 0.99 * 0.1 - 0.4) + 0.9405 * 0.9 = 0.199 + 0.84645 = 1.04545;
 *       A_0 = (0.99 * 0.4 - 0.2) + 0.9405 * 1.04545 = 0.196 + 0.983245725 = 1.179245725;</li>
 *   <li>MARCH's gamma 0.998 with lambda 1, a terminal -1 and zero values: A_t = -0.998^(3 - t).</li>
 * </ul>
 */
class GaeTest {

    @Test
    void theGuideVectorReproducesWithItsReturns() {
        Gae.Result r = Gae.compute(new double[] {0, 0, 1}, new double[] {.5, .6, .7}, 1.0, 0.95);
        assertThat(r.advantages()).containsExactly(new double[] {0.46575, 0.385, 0.30}, within(1e-6));
        assertThat(r.returns()).containsExactly(new double[] {0.96575, 0.985, 1.0}, within(1e-6));
    }

    @Test
    void discountedVectorByHand() {
        Gae.Result r = Gae.compute(new double[] {0, 0.5, 1}, new double[] {0.2, 0.4, 0.1}, 0.99, 0.95);
        assertThat(r.advantages()).containsExactly(new double[] {1.179245725, 1.04545, 0.9}, within(1e-12));
        assertThat(r.returns()).containsExactly(new double[] {1.379245725, 1.44545, 1.0}, within(1e-12));
    }

    @Test
    void marchGammaWithATerminalPenalty() {
        Gae.Result r = Gae.compute(new double[] {0, 0, 0, -1}, new double[] {0, 0, 0, 0}, 0.998, 1.0);
        assertThat(r.advantages()).containsExactly(new double[] {-0.994011992, -0.996004, -0.998, -1.0}, within(1e-12));
        assertThat(r.returns()).containsExactly(r.advantages(), within(0.0));
    }

    @Test
    void lambdaZeroIsTheOneStepTdError() {
        Gae.Result r = Gae.compute(new double[] {1, 2, 3}, new double[] {0.5, 0.25, 1}, 0.9, 0.0);
        assertThat(r.advantages()).containsExactly(new double[] {1 + 0.9 * 0.25 - 0.5, 2 + 0.9 * 1 - 0.25, 3 - 1}, within(1e-12));
    }

    @Test
    void badShapesAndFactorsAreRefused() {
        assertThatThrownBy(() -> Gae.compute(new double[] {1, 2}, new double[] {1}, 1, 1)).hasMessageContaining("one value per reward");
        assertThatThrownBy(() -> Gae.compute(new double[0], new double[0], 1, 1)).hasMessageContaining("empty");
        assertThatThrownBy(() -> Gae.compute(new double[] {1}, new double[] {1}, 1.5, 1)).hasMessageContaining("gamma must be in [0, 1]");
        assertThatThrownBy(() -> Gae.compute(new double[] {1}, new double[] {1}, 1, Double.NaN)).hasMessageContaining("lambda");
    }

    @Test
    void whiteningAsEachTrainerDoesIt() {
        // GUIDE advantages [0.46575, 0.385, 0.30]: mean 0.3835833, squared deviations sum 0.01373954;
        // VeRL: unbiased variance 0.00686977 (+1e-8); OpenRLHF: biased 0.00457985
        List<double[]> a = List.of(new double[] {0.46575, 0.385, 0.30});
        assertThat(Whitening.VERL.apply(a).getFirst())
                .containsExactly(new double[] {0.9913437, 0.0170921, -1.0084358}, within(1e-6));
        assertThat(Whitening.OPENRLHF.apply(a).getFirst())
                .containsExactly(new double[] {1.2141439, 0.0209335, -1.2350774}, within(1e-6));
        assertThat(Whitening.NONE.apply(a)).isSameAs(a);
    }

    @Test
    void whiteningSpansTheWholeBatch() {
        List<double[]> a = List.of(new double[] {0.46575, 0.385, 0.30}, new double[] {1.179245725, 1.04545, 0.9});
        List<double[]> v = Whitening.VERL.apply(a);
        assertThat(v.get(0)).containsExactly(new double[] {-0.6586495, -0.8741305, -1.1009526}, within(1e-6));
        assertThat(v.get(1)).containsExactly(new double[] {1.2453106, 0.8882773, 0.5001447}, within(1e-6));
        List<double[]> o = Whitening.OPENRLHF.apply(a);
        assertThat(o.get(0)).containsExactly(new double[] {-0.7215144, -0.9575620, -1.2060332}, within(1e-6));
        assertThat(o.get(1)).containsExactly(new double[] {1.3641695, 0.9730591, 0.5478810}, within(1e-6));
    }

    @Test
    void whiteningEdgeCases() {
        // one token: VeRL's masked_var raises; OpenRLHF gives 0 (variance clamped to 1e-8)
        assertThatThrownBy(() -> Whitening.VERL.apply(List.of(new double[] {3.0}))).hasMessageContaining("at least two tokens");
        assertThat(Whitening.OPENRLHF.apply(List.of(new double[] {3.0})).getFirst()).containsExactly(0.0);
        // equal advantages: OpenRLHF gives 0; VeRL's mean divides by n + 1e-8, so it sits 1e-8 below 2 and the
        // deviation 1e-8 times rsqrt(~0 + 1e-8) = 1e4 gives 1e-4, as masked_whiten does
        assertThat(Whitening.OPENRLHF.apply(List.of(new double[] {2, 2})).getFirst()).containsExactly(new double[] {0, 0}, within(1e-12));
        assertThat(Whitening.VERL.apply(List.of(new double[] {2, 2})).getFirst()).containsExactly(new double[] {1e-4, 1e-4}, within(1e-9));
    }
}
