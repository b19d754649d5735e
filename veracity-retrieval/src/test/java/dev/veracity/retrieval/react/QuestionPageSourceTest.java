package dev.veracity.retrieval.react;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.testing.Shared;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.search.ScoreDoc;
import org.junit.jupiter.api.Test;

/**
 * Differential: {@link QuestionPageSource} against {@link PageStore#of}, the Lucene index of the same pages, on every
 * RAMDocs question's documents titled as Reasoning Court titles them ("Document i", and titles of their own words
 * every fifth question), and on pages made to hit the edges: scores float for float, the "Similar:" lists and the
 * page lookups.
 */
class QuestionPageSourceTest {

    /** Compares the two on these documents and queries; the number of scores compared that were not 0. */
    private static int compare(List<Document> docs, List<String> queries) throws Exception {
        QuestionPageSource ours = QuestionPageSource.of(docs);
        int matched = 0;
        try (PageStore lucene = PageStore.of(docs)) {
            assertThat(ours.size()).isEqualTo(lucene.size());
            for (Document d : docs) {
                for (String title : List.of(d.title(), " " + d.title().toUpperCase() + " ", d.title() + " x")) {
                    assertThat(ours.page(title)).as(title).isEqualTo(lucene.page(title));
                }
            }
            for (String q : queries) {
                float[] expected = new float[(int) lucene.size()];
                for (ScoreDoc s : lucene.similar(q, expected.length + 1)) {
                    expected[s.doc] = s.score;
                    matched++;
                }
                assertThat(ours.scores(q)).as("query %s over %d pages", q, expected.length).containsExactly(expected);
                for (int n : new int[]{0, 1, 5, expected.length + 1}) {
                    assertThat(ours.similarTitles(q, n)).as("query %s, top %d", q, n).isEqualTo(lucene.similarTitles(q, n));
                }
            }
        }
        return matched;
    }

    /** What an agent searches for: the question, a title, a lead's opening, random bags of words with repeats. */
    private static List<String> queries(String question, List<Document> docs, SplittableRandom random) {
        List<String> out = new ArrayList<>(List.of(question, question + " " + question, "", "the of and"));
        List<String> words = new ArrayList<>();
        for (Document d : docs) {
            out.add(d.title());
            String[] w = d.text().split("\\s+");
            out.add(String.join(" ", java.util.Arrays.copyOf(w, Math.min(w.length, 6))));
            words.addAll(List.of(w));
        }
        for (int i = 0; i < 4 && !words.isEmpty(); i++) {
            StringBuilder b = new StringBuilder();
            for (int j = 1 + random.nextInt(8); j > 0; j--) {
                b.append(words.get(random.nextInt(words.size()))).append(' ');
            }
            out.add(b.toString());
        }
        return out;
    }

    @Test
    void everyRamdocsQuestionsPagesAnswerAsTheirIndexAnswers() throws Exception {
        ObjectMapper json = new ObjectMapper();
        SplittableRandom random = new SplittableRandom(13);
        int corpora = 0;
        int matched = 0;
        for (String line : Files.readAllLines(Shared.data("ramdocs/RAMDocs_test.jsonl"))) {
            JsonNode q = json.readTree(line);
            List<Document> numbered = new ArrayList<>();
            List<Document> named = new ArrayList<>();
            int i = 0;
            for (JsonNode d : q.path("documents")) {
                String text = d.path("text").asText();
                numbered.add(new Document("d" + i, "Document " + (i + 1), text));
                String[] w = text.split("\\s+");
                named.add(new Document("d" + i, String.join(" ", java.util.Arrays.copyOf(w, Math.min(2, w.length))), text));
                i++;
            }
            if (numbered.isEmpty()) {
                continue;
            }
            matched += compare(numbered, queries(q.path("question").asText(), numbered, random));
            if (corpora % 5 == 0) {
                matched += compare(named, queries(q.path("question").asText(), named, random));
            }
            corpora++;
        }
        assertThat(corpora).isGreaterThan(400);
        assertThat(matched).as("pages matched: a comparison of zeros would prove nothing").isGreaterThan(10_000);
    }

    @Test
    void theEdgesAnswerAsTheIndexAnswersToo() throws Exception {
        List<Document> edges = List.of(
                new Document("1", "Milhouse Van Houten", "Milhouse is a character. He is Bart's friend. He wears glasses."),
                new Document("2", "milhouse_van_houten", "A second paragraph of the same page."),
                new Document("3", "The", "A page whose title is a stop word."),
                new Document("4", "", "No title: skipped."),
                new Document("5", "Blank", "   "),
                new Document("6", "Bart Simpson", "Bart Simpson Bart Simpson Bart. " + "word ".repeat(3000)),
                new Document("7", "\"Quoted\"", "Café São Paulo 東京 naïve."),
                new Document("8", "Bart", "Bart."),
                new Document("9", "Lisa", "the of and a an"));
        int matched = compare(edges, List.of("Milhouse", "bart bart simpson", "Bart", "the", "café", "東京", "quoted",
                "Lisa glasses friend", "x y z"));
        assertThat(matched).isGreaterThan(5);
    }
}
