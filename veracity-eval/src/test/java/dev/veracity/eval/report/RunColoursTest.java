package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunColoursTest {

    @Test
    void twentyFiveRunsGetTwentyFiveColoursNoTwoOfThemClose() {
        List<String> colours = RunColours.first(25);
        assertThat(new HashSet<>(colours)).hasSize(25);
        double nearest = Double.MAX_VALUE;
        for (int i = 0; i < colours.size(); i++) {
            for (int j = i + 1; j < colours.size(); j++) {
                nearest = Math.min(nearest, RunColours.difference(rgb(colours.get(i)), rgb(colours.get(j))));
            }
        }
        // CIE76: about 2.3 is a just-noticeable difference; 20 apart reads as another colour at a glance
        assertThat(nearest).as("smallest CIELAB difference between two of the 25 colours").isGreaterThan(20);
        // every colour shows on the page's white: none lighter than L* 85 (Tableau's yellow is 82)
        colours.forEach(c -> assertThat(RunColours.lab(rgb(c))[0]).as(c).isLessThan(85));
        assertThat(colours.subList(0, 3)).containsExactly("#4e79a7", "#f28e2b", "#e15759"); // Tableau 10 first
        assertThat(RunColours.of(RunColours.DISTINCT)).isEqualTo(RunColours.of(0)); // then the list repeats
    }

    private static int rgb(String hex) {
        return Integer.parseInt(hex.substring(1), 16);
    }
}
