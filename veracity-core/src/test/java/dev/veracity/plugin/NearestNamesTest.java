package dev.veracity.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestNamesTest {

    private static final List<String> METHODS = List.of("no-rag", "standard-rag", "cot", "cot-sc", "madam-rag",
            "march", "truthrl", "court", "court-no-judge", "react", "c3po");

    @Test
    void aTypoGetsTheNamesAFewEditsAwayNearestFirst() {
        assertThat(NearestNames.near("standrd-rag", METHODS)).containsExactly("standard-rag");
        assertThat(NearestNames.near("MARCH", METHODS)).first().isEqualTo("march");
        assertThat(NearestNames.near("madam", METHODS)).containsExactly("madam-rag"); // a prefix
        assertThat(NearestNames.near("c3p0", METHODS)).containsExactly("c3po");
        assertThat(NearestNames.didYouMean("cort", METHODS)).isEqualTo("did you mean 'cot' or 'court'? ");
    }

    @Test
    void aNameNearNothingGetsNoSuggestion() {
        assertThat(NearestNames.near("bm25-retrieval", METHODS)).isEmpty();
        assertThat(NearestNames.didYouMean("", METHODS)).isEmpty();
        assertThat(NearestNames.didYouMean(null, METHODS)).isEmpty();
    }

    @Test
    void distanceIsLevenshteins() {
        assertThat(NearestNames.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(NearestNames.distance("", "abc")).isEqualTo(3);
        assertThat(NearestNames.distance("same", "same")).isZero();
    }
}
