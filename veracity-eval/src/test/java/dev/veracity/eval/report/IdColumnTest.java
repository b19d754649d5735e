package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** IdColumn: ids off the heap, each once, found by id and across columns by the id's bytes. */
class IdColumnTest {

    @Test
    void everyIdIsFoundOnceThroughTheIndexAsItGrowsAndARepeatNamesTheFirstRow() {
        IdColumn ids = new IdColumn(16);
        int n = 50_000;
        for (int i = 0; i < n; i++) {
            assertThat(ids.add("id-" + i + (i % 7 == 0 ? "-é" : ""))).isEqualTo(i);
        }
        assertThat(ids.add(null)).isEqualTo(n);
        assertThat(ids.add("id-3")).isEqualTo(-(3 + 1));
        ids.seal();

        assertThat(ids.size()).isEqualTo(n + 1);
        for (int i = 0; i < n; i += 997) {
            String id = "id-" + i + (i % 7 == 0 ? "-é" : "");
            assertThat(ids.rowOf(id)).isEqualTo(i);
            assertThat(ids.id(i)).isEqualTo(id);
        }
        assertThat(ids.id(n)).isNull();
        assertThat(ids.hasId(n)).isFalse();
        assertThat(ids.rowOf("id-0")).as("id-0 was added as id-0-é").isEqualTo(-1);
        assertThat(ids.rowOf((String) null)).isEqualTo(-1);
    }

    @Test
    void aQuestionIsFoundInAnotherColumnWhateverItsRowThere() {
        IdColumn a = new IdColumn(4);
        IdColumn b = new IdColumn(4);
        for (String id : new String[] {"x", "y", "z"}) {
            a.add(id);
        }
        b.add("z");
        b.add(null);
        b.add("x");
        assertThat(b.rowOf(a, 0)).isEqualTo(2);
        assertThat(b.rowOf(a, 1)).isEqualTo(-1);
        assertThat(b.rowOf(a, 2)).isEqualTo(0);
        assertThat(a.rowOf(b, 1)).as("a row without an id matches nothing").isEqualTo(-1);
        assertThat(a.rowOf(a, 1)).isEqualTo(1);
    }
}
