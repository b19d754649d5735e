package dev.veracity.eval.data;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.qa.Document;
import dev.veracity.qa.QaItem;
import dev.veracity.testing.Shared;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every real sample in shared/data loads completely, with the right count and sensible fields. */
class SampleDatasetsTest {

    /** The sample; without it the test skips, or fails under CI ({@link Shared}). */
    private static Path sample(String rel) {
        return Shared.data(rel);
    }

    private static void uniqueIds(List<QaItem> items) {
        Set<String> ids = new HashSet<>();
        items.forEach(i -> ids.add(i.id()));
        assertThat(ids).hasSize(items.size());
    }

    @Test
    void ramdocs() {
        List<QaItem> items = Datasets.load("ramdocs", sample("ramdocs/RAMDocs_test.jsonl"));
        assertThat(items).hasSize(500);
        uniqueIds(items);
        QaItem first = items.getFirst();
        assertThat(first.id()).isEqualTo("ramdocs-0");
        assertThat(first.question()).isEqualTo("What is the population of Broken Bow?");
        assertThat(first.goldTexts()).containsExactly("3,559 people");
        assertThat(first.wrong()).containsExactly("10,000 people");
        assertThat(first.metadata()).containsEntry("disambig_entity", "[\"Broken Bow, Nebraska\"]");
        assertThat(first.documents().getFirst().label("type")).isEqualTo("correct");
        assertThat(first.documents().getFirst().label("answer")).isEqualTo("3,559 people");
        assertThat(items).allSatisfy(i -> {
            assertThat(i.gold()).isNotEmpty();
            assertThat(i.documents()).isNotEmpty().allSatisfy(d -> {
                assertThat(d.text()).isNotBlank();
                assertThat(d.label("type")).isIn("correct", "misinfo", "noise");
            });
        });
        assertThat(items.stream().filter(i -> !i.wrong().isEmpty()).count()).isEqualTo(306);
        assertThat(items.stream().mapToInt(i -> i.documents().size()).sum()).isEqualTo(2766);
        assertThat(items.stream().flatMap(i -> i.documents().stream()).filter(d -> "misinfo".equals(d.label("type")))
                .count()).isEqualTo(307);
    }

    @Test
    void nqOpen() {
        List<QaItem> items = Datasets.load("nq-open", sample("nq-open/NQ-open.dev.jsonl"));
        assertThat(items).hasSize(3610);
        uniqueIds(items);
        QaItem first = items.getFirst();
        assertThat(first.id()).isEqualTo("nq-open-0");
        assertThat(first.question()).isEqualTo("when was the last time anyone was on the moon");
        assertThat(first.gold()).hasSize(1);
        assertThat(first.goldForms()).containsExactly("14 December 1972 UTC", "December 1972");
        assertThat(items).allSatisfy(i -> assertThat(i.goldForms()).isNotEmpty());
    }

    @Test
    void hotpotSimplified() {
        List<QaItem> items = Datasets.load("hotpotqa", sample("hotpotqa/hotpot_dev_v1_simplified.json"));
        assertThat(items).hasSize(7405);
        uniqueIds(items);
        QaItem first = items.getFirst();
        assertThat(first.id()).isEqualTo("hotpotqa-0");
        assertThat(first.question()).isEqualTo("Were Scott Derrickson and Ed Wood of the same nationality?");
        assertThat(first.goldTexts()).containsExactly("yes");
        assertThat(first.metadata()).containsEntry("type", "comparison");
        assertThat(items).allSatisfy(i -> {
            assertThat(i.documents()).isEmpty();
            assertThat(i.gold()).hasSize(1);
            assertThat(i.metadata().get("type")).isIn("bridge", "comparison");
        });
    }

    @Test
    void fever() {
        List<QaItem> items = Datasets.load("fever", sample("fever/paper_dev.jsonl"));
        assertThat(items).hasSize(9999);
        uniqueIds(items);
        QaItem first = items.getFirst();
        assertThat(first.id()).isEqualTo("91198");
        assertThat(first.question()).startsWith("Colin Kaepernick became a starting quarterback");
        assertThat(first.goldTexts()).containsExactly("NOT ENOUGH INFO");
        assertThat(first.metadata()).containsEntry("verifiable", "NOT VERIFIABLE").containsKey("evidence");
        assertThat(items).extracting(i -> i.goldTexts().getFirst()).containsOnly("SUPPORTS", "REFUTES",
                "NOT ENOUGH INFO");
        assertThat(items.stream().filter(i -> i.goldTexts().getFirst().equals("REFUTES")).count()).isEqualTo(3333);
    }

    @Test
    void cragBz2WithHtmlPages() {
        List<QaItem> items = Datasets.load("crag", sample("crag/dev_data.jsonl.bz2"));
        assertThat(items).hasSize(10);
        uniqueIds(items);
        QaItem first = items.getFirst();
        assertThat(first.id()).isEqualTo("3dbed55e-66a3-4dcd-907d-096f49387e41");
        assertThat(first.question()).startsWith("is microsoft office 2019 available");
        assertThat(first.queryTime()).isEqualTo("02/28/2024, 10:04:54 PT");
        assertThat(first.goldForms()).containsExactly("yes");
        assertThat(first.metadata()).containsEntry("domain", "open").containsEntry("question_type", "comparison")
                .containsEntry("static_or_dynamic", "static");
        assertThat(items).allSatisfy(i -> {
            assertThat(i.queryTime()).isNotBlank();
            assertThat(i.gold()).hasSize(1);
            assertThat(i.documents()).hasSize(5);
        });
        List<Document> docs = items.stream().flatMap(i -> i.documents().stream()).toList();
        assertThat(docs).allSatisfy(d -> {
            assertThat(d.title()).isNotBlank();
            assertThat(d.label("url")).startsWith("http");
            assertThat(d.text()).doesNotContain("<html", "<div", "<script", "</p>", "<!doctype", "<!DOCTYPE");
        });
        assertThat(docs.stream().filter(d -> d.text().length() > 1000).count()).isGreaterThan(30);
        assertThat(first.documents().getFirst().title()).startsWith("Office 2019 vs. Office 2016");
    }

    @Test
    void cragSnippetsSkipsHtml() {
        List<QaItem> items = Datasets.load("crag-snippets", sample("crag/dev_data.jsonl.bz2"));
        assertThat(items).hasSize(10);
        assertThat(items.getFirst().documents().getFirst().text()).startsWith("Additional languages can be");
    }
}
