package dev.veracity.eval.data;

import static dev.veracity.eval.data.TestFiles.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.qa.Document;
import dev.veracity.qa.GoldAnswer;
import dev.veracity.qa.QaItem;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each supported release shape, from small faithful fixtures, loads into the expected items. */
class FixtureDatasetsTest {

    @TempDir
    Path tmp;

    @Test
    void registryKnowsEveryName() {
        assertThat(Datasets.names()).contains("ramdocs", "faitheval", "ambigdocs", "hotpotqa", "2wikimultihopqa",
                "musique", "musique-answerable", "nq-open", "triviaqa", "popqa", "crag", "fever", "ragtruth");
        for (String n : Datasets.names()) {
            assertThat(Datasets.byName(n).name()).isEqualTo(n);
        }
        assertThat(Datasets.byName("NQ_Open").name()).isEqualTo("nq-open");
        assertThat(Datasets.byName("2wiki").name()).isEqualTo("2wikimultihopqa");
        assertThatThrownBy(() -> Datasets.byName("squad")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown dataset \"squad\"").hasMessageContaining("ramdocs");
    }

    @Test
    void faithEvalCounterfactualMultipleChoice() {
        List<QaItem> items = Datasets.load("faitheval", fixture("faitheval_counterfactual.jsonl"));
        assertThat(items).hasSize(2);
        QaItem q = items.getFirst();
        assertThat(q.id()).isEqualTo("Mercury_7175875");
        assertThat(q.gold()).containsExactly(GoldAnswer.of("Planetary days will become shorter.", "C"));
        assertThat(q.documents()).singleElement().extracting(Document::text).asString().startsWith("Recent studies");
        assertThat(q.metadata()).containsEntry("task", "counterfactual").containsEntry("answer_key", "C");
        assertThat(q.metadata().get("options")).contains("A. Planetary density will decrease.")
                .contains("D. Planetary gravity will become stronger.");
        assertThat(items.get(1).goldTexts()).containsExactly("wind");
    }

    @Test
    void faithEvalUnanswerableAndInconsistent() {
        List<QaItem> un = Datasets.load("faitheval", fixture("faitheval_unanswerable.jsonl"));
        assertThat(un).extracting(QaItem::id).containsExactly("squad-0001", "nq-0002");
        assertThat(un.get(1).gold()).containsExactly(GoldAnswer.of("unknown", "no answer"));
        assertThat(un.get(1).metadata()).containsEntry("task", "unanswerable").containsEntry("subset",
                "NaturalQuestions");
        List<QaItem> inc = Datasets.load("faitheval", fixture("faitheval_inconsistent.json"));
        assertThat(inc).hasSize(2);
        assertThat(inc.getFirst().documents()).hasSize(2);
        assertThat(inc.getFirst().goldTexts()).containsExactly("conflict");
        assertThat(inc.get(1).documents()).hasSize(1);
        assertThat(inc.get(1).metadata()).containsEntry("task", "inconsistent");
    }

    @Test
    void ambigDocsGoldIsTheDistinctAnswers() {
        List<QaItem> items = Datasets.load("ambigdocs", fixture("ambigdocs_dev.json"));
        assertThat(items).hasSize(2);
        QaItem q = items.getFirst();
        assertThat(q.id()).isEqualTo("ad-0");
        assertThat(q.goldTexts()).containsExactly("University of North Carolina", "University of California, San Diego");
        assertThat(q.documents()).extracting(Document::id).containsExactly("p1", "p2", "p3");
        assertThat(q.documents().get(1).title()).isEqualTo("Michael I. Jordan");
        assertThat(q.documents().get(1).label("answer")).isEqualTo("University of California, San Diego");
        assertThat(q.metadata()).containsEntry("ambiguous_entity", "Michael Jordan");
        assertThat(items.get(1).goldTexts()).containsExactly("4,880 km");
    }

    @Test
    void hotpotDistractorParagraphsWithSupportingLabels() {
        List<QaItem> items = Datasets.load("hotpotqa", fixture("hotpot_dev_distractor_v1.json"));
        assertThat(items).hasSize(2);
        QaItem q = items.getFirst();
        assertThat(q.id()).isEqualTo("5a8b57f25542995d1e6f1371");
        assertThat(q.goldTexts()).containsExactly("yes");
        assertThat(q.metadata()).containsEntry("type", "comparison").containsEntry("level", "hard");
        assertThat(q.documents()).extracting(Document::title).containsExactly("Ed Wood (film)", "Scott Derrickson",
                "Ed Wood");
        assertThat(q.documents()).extracting(d -> d.label("supporting")).containsExactly("false", "true", "true");
        Document scott = q.documents().get(1);
        assertThat(scott.text()).isEqualTo("Scott Derrickson (born July 16, 1966) is an American director, "
                + "screenwriter and producer. He lives in Los Angeles, California. He is best known for directing "
                + "horror films.");
        assertThat(scott.label("supporting_sentences")).isEqualTo("0");
        assertThat(items.get(1).documents().get(1).label("supporting_sentences")).isEqualTo("0,1");
    }

    @Test
    void twoWikiWithEvidences() {
        List<QaItem> items = Datasets.load("2wikimultihopqa", fixture("2wikimultihopqa_dev.json"));
        assertThat(items).hasSize(2);
        QaItem q = items.getFirst();
        assertThat(q.id()).isEqualTo("8813f87c0bdd11eba7f7acde48001122");
        assertThat(q.goldTexts()).containsExactly("Xawery Żuławski");
        assertThat(q.metadata()).containsEntry("type", "compositional")
                .containsEntry("evidences", "[[\"Polish-Russian War\",\"director\",\"Xawery Żuławski\"]]");
        // 2Wiki sentences have no leading spaces: joined with one.
        assertThat(q.documents().get(1).text()).isEqualTo("Xawery Żuławski (born 22 December 1971 in Warsaw) is a "
                + "Polish film director. In 1995 he graduated National Film School in Łódź.");
        assertThat(q.documents()).extracting(d -> d.label("supporting")).containsExactly("true", "false");
    }

    @Test
    void musiqueFullAndAnswerableOnly() {
        Path file = fixture("musique_full_v1.0_dev.jsonl");
        List<QaItem> all = Datasets.load("musique", file);
        assertThat(all).hasSize(3);
        QaItem q = all.getFirst();
        assertThat(q.id()).isEqualTo("2hop__153573_109006");
        assertThat(q.gold()).containsExactly(GoldAnswer.of("Twycross", "Twycross, Leicestershire"));
        assertThat(q.documents()).extracting(d -> d.label("supporting")).containsExactly("true", "true", "false");
        assertThat(q.documents().get(1).title()).isEqualTo("Rare (company)");
        assertThat(q.metadata()).containsEntry("answerable", "true").containsEntry("hops", "2");
        assertThat(all.get(1).metadata()).containsEntry("answerable", "false");
        assertThat(all.get(2).metadata()).containsEntry("hops", "3");
        List<QaItem> ans = Datasets.load("musique-answerable", file);
        assertThat(ans).extracting(QaItem::id).containsExactly("2hop__153573_109006", "3hop1__9285_5188_23307");
    }

    @Test
    void triviaQaDataArrayAfterOtherFields() throws IOException {
        Path file = fixture("triviaqa_wikipedia-dev.json");
        List<QaItem> items = Datasets.load("triviaqa", file);
        assertThat(items).hasSize(2);
        QaItem q = items.getFirst();
        assertThat(q.id()).isEqualTo("tc_33");
        assertThat(q.gold()).hasSize(1);
        assertThat(q.goldForms()).containsExactly("Sunset Boulevard", "Sunset Blvd", "Sunset Bulevard",
                "sunset boulevard", "sunset blvd", "sunset bulevard");
        assertThat(q.documents()).singleElement().satisfies(d -> {
            assertThat(d.title()).isEqualTo("Sunset Boulevard (musical) - Wikipedia");
            assertThat(d.label("url")).isEqualTo("https://en.wikipedia.org/wiki/Sunset_Boulevard_(musical)");
        });
        assertThat(q.metadata()).containsEntry("entity_pages", "Andrew Lloyd Webber");
        assertThat(items.get(1).goldForms()).containsExactly("6", "six");
        // The same file gzip- and bzip2-compressed reads the same.
        Path gz = tmp.resolve("wikipedia-dev.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(file, out);
        }
        Path bz = tmp.resolve("wikipedia-dev.json.bz2");
        try (OutputStream out = new BZip2CompressorOutputStream(Files.newOutputStream(bz))) {
            Files.copy(file, out);
        }
        assertThat(Datasets.load("triviaqa", gz)).isEqualTo(items);
        assertThat(Datasets.load("triviaqa", bz)).isEqualTo(items);
    }

    @Test
    void popQaTsvWithJsonListColumns() {
        List<QaItem> items = Datasets.load("popqa", fixture("popQA.tsv"));
        assertThat(items).hasSize(3);
        QaItem q = items.getFirst();
        assertThat(q.id()).isEqualTo("4222362");
        assertThat(q.question()).isEqualTo("What is George Rankin's occupation?");
        assertThat(q.goldForms()).containsExactly("politician", "political leader", "political figure", "polit.",
                "pol");
        assertThat(q.metadata()).containsEntry("subj", "George Rankin").containsEntry("prop", "occupation")
                .containsEntry("s_pop", "142");
        // A CSV-quoted cell, as pandas writes it.
        assertThat(items.get(1).goldForms()).containsExactly("journalist", "journo", "journalists");
        assertThat(items.get(2).id()).isEqualTo("7037218");
        assertThat(items.get(2).raw().get("o_wiki_title").asText()).isEqualTo("Fantasy");
    }

    @Test
    void cragPlainJsonlWithListAlternatives() {
        List<QaItem> items = Datasets.load("crag", fixture("crag_small.jsonl"));
        QaItem q = items.getFirst();
        assertThat(q.gold()).containsExactly(GoldAnswer.of("christopher nolan", "nolan"));
        assertThat(q.queryTime()).isEqualTo("03/01/2024, 10:00:00 PT");
        Document page = q.documents().getFirst();
        assertThat(page.title()).isEqualTo("Inception - Wikipedia");
        assertThat(page.text()).contains("Inception is a 2010 science fiction film written and directed by "
                + "Christopher Nolan.").doesNotContain("color:red", "var x", "enable js", "<");
        assertThat(page.label("snippet")).isEqualTo("Inception is a 2010 film by Christopher Nolan.");
        assertThat(page.label("last_modified")).isEqualTo("Mon, 01 Jan 2024 00:00:00 GMT");
        assertThat(q.documents().get(1).text()).isEqualTo("Snippet only.");
        assertThat(q.documents().get(1).labels()).doesNotContainKey("last_modified");
    }

    @Test
    void ragTruthResponsesJoinedWithSources() {
        List<QaItem> items = Datasets.load("ragtruth", fixture("ragtruth/response.jsonl"));
        assertThat(items).hasSize(3);
        QaItem ok = items.getFirst();
        assertThat(ok.id()).isEqualTo("0");
        assertThat(ok.question()).isEqualTo("how long to cook a whole chicken");
        assertThat(ok.documents()).extracting(Document::text).containsExactly(
                "Roast the chicken for 20 minutes per pound plus 15 minutes.",
                "A 4 pound chicken takes about 1 hour 30 minutes at 350 degrees.");
        assertThat(ok.metadata()).containsEntry("task_type", "QA").containsEntry("model", "gpt-4-0613")
                .containsEntry("hallucinated", "false").containsEntry("hallucination_count", "0");
        QaItem bad = items.get(1);
        assertThat(bad.metadata()).containsEntry("hallucinated", "true").containsEntry("split", "test");
        assertThat(bad.metadata().get("hallucination_spans")).contains("Evident Conflict", "\"start\":20");
        assertThat(bad.metadata().get("response")).isEqualTo("Cook the chicken at 425 degrees for 2 hours.");
        QaItem summary = items.get(2);
        assertThat(summary.question()).startsWith("Summarize the following news");
        assertThat(summary.documents()).singleElement().extracting(Document::text).asString()
                .startsWith("The city council voted");
        // source_info.jsonl alone: one item per source.
        assertThat(Datasets.load("ragtruth", fixture("ragtruth/source_info.jsonl"))).extracting(QaItem::id)
                .containsExactly("15596", "11820");
    }

    @Test
    void ragTruthSimpleShape() {
        List<QaItem> items = Datasets.load("ragtruth", fixture("ragtruth_simple.jsonl"));
        assertThat(items).extracting(QaItem::id).containsExactly("rt-a", "ragtruth-1");
        assertThat(items.getFirst().question()).isEqualTo("who painted the ceiling");
        assertThat(items.getFirst().documents()).hasSize(1);
        assertThat(items.getFirst().metadata()).containsEntry("hallucinated", "true");
        assertThat(items.get(1).documents()).singleElement().extracting(Document::text)
                .isEqualTo("The bridge opened in 1937.");
    }

    @Test
    void jsonlNamedJsonAndWrappedDataAreDetected() throws IOException {
        // HF's to_json writes JSONL under a .json name.
        Path f = tmp.resolve("nq.json");
        Files.writeString(f, "{\"question\": \"q0\", \"answer\": [\"a\"]}\n\n{\"question\": \"q1\", \"answer\": \"b\"}\n");
        assertThat(Datasets.load("nq-open", f)).extracting(QaItem::id).containsExactly("nq-open-0", "nq-open-2");
        Path w = tmp.resolve("wrapped.json");
        Files.writeString(w, "{\"version\": 2, \"data\": [{\"question\": \"q\", \"answer\": [\"a\"]}]}");
        assertThat(Datasets.load("nq-open", w)).singleElement().extracting(QaItem::question).isEqualTo("q");
    }
}
