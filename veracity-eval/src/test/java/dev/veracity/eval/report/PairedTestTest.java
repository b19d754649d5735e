package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The paired tests against hand-computed values. */
class PairedTestTest {

    /** A 0/1 metric over questions: {@code better} the run gets right and the baseline wrong, {@code worse} the reverse. */
    private static PairedTest.Result binary(int better, int worse, int bothRight, int bothWrong) {
        int n = better + worse + bothRight + bothWrong;
        double[] base = new double[n];
        double[] run = new double[n];
        int i = 0;
        for (int k = 0; k < better; k++, i++) {
            run[i] = 1;
        }
        for (int k = 0; k < worse; k++, i++) {
            base[i] = 1;
        }
        for (int k = 0; k < bothRight; k++, i++) {
            base[i] = 1;
            run[i] = 1;
        }
        return PairedTest.of(base, run, 1000, 1);
    }

    @Test
    void aBinaryMetricGetsTheExactMcNemarTest() {
        // 5 better, 1 worse: 2 x P(X <= 1), X ~ Bin(6, 1/2) = 2 x 7/64 (a paired bootstrap said 0.118)
        PairedTest.Result r = binary(5, 1, 30, 4);
        assertThat(r.test()).isEqualTo("mcnemar-exact");
        assertThat(r.exact()).isTrue();
        assertThat(r.p()).isEqualTo(0.21875);
        assertThat(r.display()).isEqualTo("p=0.219");
        assertThat(r.describe()).isEqualTo("exact McNemar");
        assertThat(binary(5, 5, 10, 0).p()).isEqualTo(1.0);
        assertThat(binary(0, 0, 10, 3).p()).isEqualTo(1.0);
        // 8 better, 0 worse: 2 / 2^8
        assertThat(binary(8, 0, 0, 0).p()).isEqualTo(2.0 / 256);
    }

    @Test
    void aPValueIsNeverPrintedAsZero() {
        PairedTest.Result r = binary(20, 0, 20, 0);
        assertThat(r.p()).isPositive().isEqualTo(2 * Math.pow(0.5, 20), within(1e-18));
        assertThat(r.display()).isEqualTo("p<0.001");
        // thousands of discordant questions neither overflow nor underflow into nonsense
        double p = PairedTest.mcnemar(3000, 2000);
        assertThat(p).isGreaterThanOrEqualTo(0).isLessThan(1e-20);
        assertThat(PairedTest.mcnemar(2500, 2500)).isEqualTo(1.0, within(1e-9));
        assertThat(PairedTest.mcnemar(1010, 990)).isBetween(0.6, 0.7); // normal approximation: 0.67
    }

    @Test
    void anyOtherMetricGetsTheSignFlipPermutationTestExactWhenFewQuestionsDiffer() {
        // differences 1, 2, 3 (and a tie): of the 8 sign patterns, |sum| >= 6 for + + + and - - -
        PairedTest.Result r = PairedTest.of(new double[] {0.0, 0.0, 0.0, 0.5}, new double[] {0.25, 0.5, 0.75, 0.5}, 1000, 1);
        assertThat(r.test()).isEqualTo("sign-flip-exact");
        assertThat(r.p()).isEqualTo(0.25);
        // differences 1, -1, 2: sums 2 (observed), patterns with |sum| >= 2: 4 of 8 (+1-1+2, -1+1+2, +1-1-2, -1+1-2, and
        // +1+1 +/- 2 give 4 and 0; -1-1 +/- 2 give 0 and -4): |sum| in {2, 2, 2, 2, 4, 0, 0, 4} -> 6 of 8
        PairedTest.Result mixed = PairedTest.signFlip(new double[] {0.1, -0.1, 0.2}, 1000, 1);
        assertThat(mixed.p()).isEqualTo(6.0 / 8);
        assertThat(PairedTest.signFlip(new double[] {0, 0}, 1000, 1).p()).isEqualTo(1.0);
    }

    @Test
    void manyDifferencesUseRandomPatternsAndSayTheirResolutionInsteadOfZero() {
        double[] d = new double[40];
        java.util.Arrays.fill(d, 0.5);
        PairedTest.Result r = PairedTest.signFlip(d, 1000, 7);
        assertThat(r.test()).isEqualTo("sign-flip-monte-carlo");
        assertThat(r.exact()).isFalse();
        assertThat(r.extreme()).isZero();
        assertThat(r.p()).isEqualTo(1.0 / 1001);
        assertThat(r.display()).isEqualTo("p<0.001");
        assertThat(PairedTest.signFlip(d, 200, 7).display()).isEqualTo("p<0.005");
        assertThat(r.describe()).isEqualTo("sign-flip permutation, 1000 random patterns");
        // half positive, half negative: no difference, and the same seed gives the same p
        for (int i = 0; i < 20; i++) {
            d[i] = -0.5;
        }
        PairedTest.Result none = PairedTest.signFlip(d, 1000, 7);
        assertThat(none.p()).isEqualTo(1.0);
        assertThat(PairedTest.signFlip(d, 1000, 7)).isEqualTo(none);
    }
}
