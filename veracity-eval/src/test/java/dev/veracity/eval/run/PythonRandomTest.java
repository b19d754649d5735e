package dev.veracity.eval.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Vectors printed by CPython 3.11 ({@code random.Random(seed)}); ReAct's selection of its 500 questions. */
class PythonRandomTest {

    @Test
    void getrandbitsMatchesCPython() {
        // python3 -c "import random; r=random.Random(233); print([r.getrandbits(32) for _ in range(3)])"
        PythonRandom r = new PythonRandom(233);
        assertThat(List.of(r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)))
                .containsExactly(2931216007L, 3446561803L, 2698614761L);
    }

    @Test
    void shuffleMatchesCPython() {
        // idxs = list(range(7405)); random.Random(233).shuffle(idxs); idxs[:10], idxs[499]
        int[] react = PythonRandom.shuffledRange(233, 7405);
        assertThat(Arrays.copyOf(react, 10)).containsExactly(3687, 6238, 5388, 3522, 3824, 2866, 1551, 2544, 1557, 5762);
        assertThat(react[499]).isEqualTo(4082);
        assertThat(PythonRandom.shuffledRange(0, 10)).containsExactly(7, 8, 1, 5, 3, 4, 2, 0, 9, 6);
        assertThat(Arrays.copyOf(PythonRandom.shuffledRange(233, 2417), 5)).containsExactly(1594, 2218, 2146, 963, 2209);
        assertThat(Arrays.stream(react).sorted().toArray()).isEqualTo(IntStream.range(0, 7405).toArray());
    }

    @Test
    void aSampleTakesTheShuffledIndicesOfTheFileInSampleOrder() {
        List<Integer> file = IntStream.range(0, 9999).boxed().toList(); // FEVER's 9,999 claims, ReAct's range 7405
        List<Integer> sample = new QuestionSample(500, 233, 7405).select(file);
        assertThat(sample).hasSize(500).startsWith(3687, 6238, 5388).allMatch(i -> i < 7405);
        assertThat(new QuestionSample(500, 233, 7405).describe()).isEqualTo("python random.Random(233).shuffle(range(7405))[:500]");
        assertThatThrownBy(() -> new QuestionSample(500, 233, 7405).select(file.subList(0, 20)))
                .hasMessage("the sample shuffles indices 0..7404 but the file has 20 questions; is it the paper's split?");
        assertThatThrownBy(() -> new QuestionSample(30, 1, 0).select(file.subList(0, 20)))
                .hasMessage("a sample of 30 from 20 questions is not possible");
    }
}
