package dev.veracity.eval.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.eval.run.DatasetProfile;
import dev.veracity.qa.QaItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetRegistryTest {

    @TempDir
    Path dir;

    @Test
    void everyAliasIsScoredAsItsDataset() {
        for (DatasetSpec spec : Datasets.specs()) {
            DatasetProfile canonical = DatasetProfile.of(spec.name());
            assertThat(canonical.metrics()).isEqualTo(spec.metrics());
            for (String alias : spec.aliases()) {
                assertThat(Datasets.spec(alias).name()).isEqualTo(spec.name());
                assertThat(DatasetProfile.of(alias)).as(alias).isEqualTo(canonical);
                assertThat(DatasetProfile.of(alias.toUpperCase().replace('-', '_'))).as(alias).isEqualTo(canonical);
            }
        }
        assertThat(DatasetProfile.of("nq").metrics()).containsExactly("nq-em", "substring");
        assertThat(DatasetProfile.of("nq_open").metrics()).containsExactly("nq-em", "substring");
        assertThat(DatasetProfile.of("hotpot").metrics()).containsExactly("em", "f1");
        assertThat(DatasetProfile.of("2wiki").metrics()).containsExactly("em", "f1");
        assertThat(DatasetProfile.of("musique-ans").metrics()).containsExactly("musique-em", "musique-f1");
        assertThat(DatasetProfile.of("musique-answerable").metrics()).containsExactly("musique-em", "musique-f1");
        assertThat(DatasetProfile.of("crag-snippets").metrics()).containsExactly("truthfulness-answer", "em");
        assertThat(DatasetProfile.of("jsonl").metrics()).containsExactly("em", "f1");
        assertThat(DatasetProfile.of("RAMDocs").multiAnswer()).isTrue();
    }

    @Test
    void unknownNamesListTheKnownOnes() {
        assertThatThrownBy(() -> DatasetProfile.of("squad")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown dataset \"squad\"").hasMessageContaining("nq-open")
                .hasMessageContaining("flashrag").hasMessageContaining("nq=nq-open");
    }

    @Test
    void flashRagJsonlLoads() throws Exception {
        Path f = dir.resolve("dev.jsonl");
        Files.writeString(f, """
                {"id": "test_0", "question": "who wrote hamlet?", "golden_answers": ["William Shakespeare", "Shakespeare"], "metadata": {"source": "nq", "level": 2}}
                {"question": "capital of france?", "golden_answers": ["Paris"], "documents": ["Paris is the capital.", {"title": "France", "text": "A country."}]}
                {"id": "c", "question": "q3", "golden_answers": ["a"], "contexts": [{"id": "d9", "contents": "\\"Hamlet\\"\\nA tragedy."}]}
                """);
        List<QaItem> items = Datasets.load("jsonl", f);
        assertThat(items).hasSize(3);
        QaItem first = items.get(0);
        assertThat(first.id()).isEqualTo("test_0");
        assertThat(first.goldForms()).containsExactly("William Shakespeare", "Shakespeare");
        assertThat(first.metadata()).containsEntry("source", "nq").containsEntry("level", "2");
        assertThat(first.documents()).isEmpty();
        QaItem second = items.get(1);
        assertThat(second.id()).isEqualTo("flashrag-1");
        assertThat(second.documents()).hasSize(2);
        assertThat(second.documents().get(0).text()).isEqualTo("Paris is the capital.");
        assertThat(second.documents().get(1).title()).isEqualTo("France");
        QaItem third = items.get(2);
        assertThat(third.documents().getFirst().title()).isEqualTo("Hamlet");
        assertThat(third.documents().getFirst().text()).isEqualTo("A tragedy.");
        assertThat(third.documents().getFirst().id()).isEqualTo("d9");
    }

    @Test
    void badFlashRagLinesNameFileAndLine() throws Exception {
        Path f = dir.resolve("bad.jsonl");
        Files.writeString(f, "{\"question\": \"q\", \"golden_answers\": [\"a\"]}\n{\"question\": \"q2\"}\n");
        assertThatThrownBy(() -> Datasets.load("flashrag", f)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("bad.jsonl:2: flashrag record without its gold answers: missing field"
                        + " \"golden_answers\"");
        Path g = dir.resolve("bad2.jsonl");
        Files.writeString(g, "{\"question\": \"q\", \"golden_answers\": [\"a\"], \"documents\": [3]}\n");
        assertThatThrownBy(() -> Datasets.load("flashrag", g)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("bad2.jsonl:1: ").hasMessageContaining("documents[0]");
        Path h = dir.resolve("bad3.jsonl");
        Files.writeString(h, "{\"question\": \"q\", \"golden_answers\": [\"a\"]}\n{not json\n");
        assertThatThrownBy(() -> Datasets.load("flashrag", h)).isInstanceOf(DatasetException.class)
                .hasMessageStartingWith("bad3.jsonl:2: invalid JSON");
    }
}
