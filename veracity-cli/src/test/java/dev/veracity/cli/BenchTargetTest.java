package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BenchTargetTest {

    @Test
    void aCeilingIsMetAtOrBelowItsValueAndTheRatioIsFigureOverTarget() {
        BenchTarget t = BenchTarget.atMost("first model call after launch", 500, "ms");
        assertThat(t.line(412)).isEqualTo("first model call after launch: 412 ms   target <= 500 ms   ratio 0.82   met");
        assertThat(t.line(500)).endsWith("ratio 1.00   met");
        assertThat(t.line(612.4)).isEqualTo("first model call after launch: 612 ms   target <= 500 ms   ratio 1.22   MISSED");
    }

    @Test
    void aFloorIsMetAtOrAboveItsValue() {
        BenchTarget t = BenchTarget.atLeast("speed-up over the authors' loop", 20, "x");
        assertThat(t.line(23.456)).isEqualTo("speed-up over the authors' loop: 23.5x   target >= 20x   ratio 1.17   met");
        assertThat(t.line(14.2)).endsWith("ratio 0.71   MISSED");
        assertThat(t.met(Double.NaN)).isFalse();
    }

    @Test
    void smallFiguresKeepTheirDecimals() {
        BenchTarget t = BenchTarget.atMost("wall time over the ideal", 1.2, "x");
        assertThat(t.line(1.137)).isEqualTo("wall time over the ideal: 1.14x   target <= 1.20x   ratio 0.95   met");
    }

    @Test
    void aTargetMustBeAPositiveNumber() {
        assertThatThrownBy(() -> BenchTarget.atMost("x", 0, "ms")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BenchTarget.atMost("x", Double.NaN, "ms")).isInstanceOf(IllegalArgumentException.class);
    }
}
