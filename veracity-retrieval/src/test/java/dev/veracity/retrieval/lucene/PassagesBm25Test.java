package dev.veracity.retrieval.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.corpus.Document;
import dev.veracity.testing.Shared;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Differential: {@link PassagesBm25} against an in-memory Lucene index of the same passages searched by
 * {@link Bm25Retriever}, float for float, on every RAMDocs question's documents (with and without titles) and on
 * corpora made to hit the edges: empty and stop-word-only passages and queries, repeated query words (boosted
 * clauses), identical passages, a passage far longer than the others (its length is stored in one lossy byte).
 */
class PassagesBm25Test {

    /** Lucene's scores for every passage each query matches, by position; 0 for the others. */
    private static List<float[]> lucene(List<Document> docs, List<String> queries) throws Exception {
        List<Document> indexed = new ArrayList<>();
        for (int i = 0; i < docs.size(); i++) {
            indexed.add(new Document(Integer.toString(i), docs.get(i).title(), docs.get(i).text()));
        }
        List<float[]> out = new ArrayList<>();
        try (LuceneIndex index = LuceneIndex.inMemory(indexed, null)) {
            for (String q : queries) {
                float[] scores = new float[docs.size()];
                for (Passage p : index.bm25().search(q, docs.size())) {
                    scores[Integer.parseInt(p.id())] = (float) p.score();
                }
                out.add(scores);
            }
        }
        return out;
    }

    private static int compare(List<Document> docs, List<String> queries) throws Exception {
        PassagesBm25 ours = new PassagesBm25(docs);
        List<float[]> expected = lucene(docs, queries);
        int matched = 0;
        for (int i = 0; i < queries.size(); i++) {
            assertThat(ours.scores(queries.get(i))).as("query %s over %d passages", queries.get(i), docs.size())
                    .containsExactly(expected.get(i));
            for (float s : expected.get(i)) {
                matched += s > 0 ? 1 : 0;
            }
        }
        return matched;
    }

    /** Queries a reader of these passages might send: the question, a passage's opening, random bags with repeats. */
    private static List<String> queries(String question, List<Document> docs, SplittableRandom random) {
        List<String> out = new ArrayList<>(List.of(question, question + " " + question));
        List<String> words = new ArrayList<>();
        for (Document d : docs) {
            String[] w = d.text().split("\\s+");
            out.add(String.join(" ", java.util.Arrays.copyOf(w, Math.min(w.length, 12))));
            words.addAll(List.of(w));
        }
        for (int i = 0; i < 4 && !words.isEmpty(); i++) {
            StringBuilder b = new StringBuilder();
            int n = 1 + random.nextInt(15);
            for (int j = 0; j < n; j++) {
                b.append(words.get(random.nextInt(words.size()))).append(' ');
            }
            out.add(b.toString());
        }
        return out;
    }

    @Test
    void everyRamdocsQuestionsDocumentsScoreAsAnIndexOfThemScores() throws Exception {
        ObjectMapper json = new ObjectMapper();
        SplittableRandom random = new SplittableRandom(7);
        int corpora = 0;
        int matched = 0;
        for (String line : Files.readAllLines(Shared.data("ramdocs/RAMDocs_test.jsonl"))) {
            JsonNode q = json.readTree(line);
            List<Document> plain = new ArrayList<>();
            List<Document> titled = new ArrayList<>();
            int i = 0;
            for (JsonNode d : q.path("documents")) {
                String text = d.path("text").asText();
                plain.add(new Document("d" + i, "", text));
                String[] w = text.split("\\s+");
                titled.add(new Document("d" + i, String.join(" ", java.util.Arrays.copyOf(w, Math.min(3, w.length))),
                        text));
                i++;
            }
            if (plain.isEmpty()) {
                continue;
            }
            matched += compare(plain, queries(q.path("question").asText(), plain, random));
            if (corpora % 5 == 0) {
                matched += compare(titled, queries(q.path("question").asText(), titled, random));
            }
            corpora++;
        }
        assertThat(corpora).isGreaterThan(400);
        assertThat(matched).as("passages matched: a comparison of zeros would prove nothing").isGreaterThan(10_000);
    }

    @Test
    void theEdgesScoreAsAnIndexScoresThemToo() throws Exception {
        String longText = "river ".repeat(3_000) + "bank of the river Thames";
        List<Document> docs = List.of(new Document("a", "", ""), new Document("b", "", "the of and a"),
                new Document("c", "Thames", "The Thames flows through London."),
                new Document("d", "Thames", "The Thames flows through London."),
                new Document("e", "", longText), new Document("f", "", "London's bridges: Tower Bridge, London Bridge."),
                new Document("g", "Río", "Ünïcödé façade naïve café — 東京 São Paulo"));
        compare(docs, List.of("", "the of and", "thames", "Thames thames THAMES london", "river", "river river river bank",
                "London's bridge", "café São 東京", "nothing matches this", "flows; through: London?"));
        // no passage with a term at all
        assertThat(new PassagesBm25(List.of(new Document("a", "", ""), new Document("b", "", "the a"))).scores("the a x"))
                .containsExactly(0f, 0f);
        assertThat(new PassagesBm25(List.of()).scores("x")).isEmpty();
    }
}
