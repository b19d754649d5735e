package dev.veracity.eval.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MetricsTest {

    @Test
    void registryHasExactlyTheBenchmarkNames() {
        assertThat(Metrics.names()).containsExactly("em", "f1", "nq-em", "triviaqa-em", "triviaqa-f1", "musique-em",
                "musique-f1", "substring", "substring:strict", "fever-acc", "strict-multi", "truthfulness", "truthfulness-answer", "truthfulness:exclude-no-box",
                "truthfulness-answer:exclude-no-box");
        for (String n : Metrics.names()) assertThat(Metrics.byName(n).name()).isEqualTo(n);
    }

    @Test
    void unknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> Metrics.byName("EM"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown metric 'EM'")
                .hasMessageContaining("em, f1, nq-em, triviaqa-em, triviaqa-f1, musique-em, musique-f1, substring, substring:strict, "
                        + "fever-acc, strict-multi, truthfulness");
        assertThatThrownBy(() -> Metrics.byName(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
