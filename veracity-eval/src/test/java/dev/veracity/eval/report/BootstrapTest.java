package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BootstrapTest {

    @Test
    void allOnesGiveOneToOne() {
        double[] ones = new double[50];
        java.util.Arrays.fill(ones, 1.0);
        Bootstrap.Interval i = Bootstrap.mean(ones, 1000, 7);
        assertThat(i.mean()).isEqualTo(1.0);
        assertThat(i.lo()).isEqualTo(1.0);
        assertThat(i.hi()).isEqualTo(1.0);
        assertThat(i.n()).isEqualTo(50);
    }

    @Test
    void aFiftyFiftyVectorContainsOneHalfWithASensibleWidth() {
        double[] v = new double[100];
        for (int k = 0; k < v.length; k++) {
            v[k] = k % 2;
        }
        Bootstrap.Interval i = Bootstrap.mean(v, Bootstrap.DEFAULT_RESAMPLES, Bootstrap.DEFAULT_SEED);
        assertThat(i.mean()).isEqualTo(0.5);
        assertThat(i.lo()).isLessThan(0.5).isGreaterThan(0.35);
        assertThat(i.hi()).isGreaterThan(0.5).isLessThan(0.65);
        // the normal approximation: 1.96 * sqrt(0.25 / 100) = 0.098 each side
        assertThat(i.hi() - i.lo()).isBetween(0.14, 0.26);
    }

    @Test
    void theSameSeedGivesTheSameIntervalAndAnotherSeedMayNot() {
        double[] v = {0, 1, 1, 0, 1, 0.5, 0.25, 1, 0, 0, 1, 1};
        Bootstrap.Interval a = Bootstrap.mean(v, 1000, 42);
        Bootstrap.Interval b = Bootstrap.mean(v, 1000, 42);
        assertThat(a).isEqualTo(b);
        assertThat(Bootstrap.mean(v, 1000, 43)).isNotEqualTo(a);
    }

    @Test
    void noValuesIsNoIntervalAndResamplesMustBePositive() {
        assertThat(Bootstrap.mean(new double[0], 1000, 1)).isNull();
        assertThatThrownBy(() -> Bootstrap.mean(new double[] {1}, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Bootstrap.mean(new double[] {0.3}, 10, 1)).isEqualTo(new Bootstrap.Interval(0.3, 0.3, 0.3, 1));
    }
}
