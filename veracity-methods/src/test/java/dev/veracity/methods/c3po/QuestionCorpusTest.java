package dev.veracity.methods.c3po;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.veracity.qa.Document;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.lucene.AnseriniAnalyzer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.SmallFloat;
import org.junit.jupiter.api.Test;

/**
 * A question's own passages searched as the project's Lucene index searches: checked against BM25 written out here
 * from its definition (k1 0.9, b 0.4, Anserini's analyzer), the passages the query does not match ranked after, and
 * C-3PO's next-10 rule paging through the ranking.
 */
class QuestionCorpusTest {

    private static final double K1 = 0.9;
    private static final double B = 0.4;

    /** Ten paragraphs of varied length, as HotpotQA's distractor setting gives a question. */
    static final List<Document> PARAGRAPHS = List.of(
            Document.of("p0", "Scott Derrickson", "Scott Derrickson (born July 16, 1966) is an American director, screenwriter"
                    + " and producer. He lives in Los Angeles, California. He is best known for directing horror films such"
                    + " as Sinister, The Exorcism of Emily Rose, and Deliver Us From Evil, as well as the 2016 Marvel Cinematic"
                    + " Universe installment, Doctor Strange."),
            Document.of("p1", "Ed Wood", "Edward Davis Wood Jr. (October 10, 1924 - December 10, 1978) was an American"
                    + " filmmaker, actor, writer, producer, and director."),
            Document.of("p2", "Ed Wood (film)", "Ed Wood is a 1994 American biographical period comedy-drama film directed and"
                    + " produced by Tim Burton, and starring Johnny Depp as cult filmmaker Ed Wood."),
            Document.of("p3", "Sinister (film)", "Sinister is a 2012 supernatural horror film directed by Scott Derrickson and"
                    + " written by Derrickson and C. Robert Cargill."),
            Document.of("p4", "Doctor Strange (2016 film)", "Doctor Strange is a 2016 American superhero film based on the"
                    + " Marvel Comics character of the same name. It was directed by Scott Derrickson."),
            Document.of("p5", "Tim Burton", "Timothy Walter Burton (born August 25, 1958) is an American filmmaker, artist,"
                    + " writer, and animator. He is known for his dark, gothic, and eccentric horror and fantasy films."),
            Document.of("p6", "Glen or Glenda", "Glen or Glenda is a 1953 American drama film written, directed by and"
                    + " starring Ed Wood."),
            Document.of("p7", "Woodson, Arkansas", "Woodson is a census-designated place in Pulaski County, Arkansas, United"
                    + " States. The population was 403 at the 2010 census."),
            Document.of("p8", "The Exorcism of Emily Rose", "The Exorcism of Emily Rose is a 2005 American legal drama horror"
                    + " film directed by Scott Derrickson, loosely based on the story of Anneliese Michel."),
            Document.of("p9", "Deliver Us from Evil (2014 film)", "Deliver Us from Evil is a 2014 American supernatural horror"
                    + " film directed by Scott Derrickson and produced by Jerry Bruckheimer."));

    static final List<String> QUERIES = List.of(
            "Were Scott Derrickson and Ed Wood of the same nationality?",
            "Scott Derrickson nationality",
            "Ed Wood",
            "Who directed the 1994 film about Ed Wood?",
            "horror films directed by Scott Derrickson",
            "Doctor Strange director",
            "Woodson Arkansas population",
            "director director Burton");

    @Test
    void ranksAsBm25WithTheIndexsParametersAndAnalyzerRanks() {
        try (QuestionCorpus corpus = new QuestionCorpus(PARAGRAPHS)) {
            for (String q : QUERIES) {
                double[] expected = oracle(PARAGRAPHS, q);
                List<Passage> got = corpus.search(q, PARAGRAPHS.size());
                assertThat(got).as(q).hasSize(PARAGRAPHS.size());
                int best = 0;
                for (int i = 1; i < expected.length; i++) {
                    best = expected[i] > expected[best] ? i : best;
                }
                assertThat(got.getFirst().id()).as("first for '%s'", q).isEqualTo(PARAGRAPHS.get(best).id());
                for (int r = 0; r < got.size(); r++) {
                    Passage p = got.get(r);
                    int i = PARAGRAPHS.indexOf(PARAGRAPHS.stream().filter(d -> d.id().equals(p.id())).findFirst().orElseThrow());
                    assertThat(p.score()).as("score of %s for '%s'", p.id(), q).isCloseTo(expected[i], within(1e-4 * (1 + expected[i])));
                    if (r > 0) {
                        assertThat(p.score()).as("ranked by score for '%s'", q).isLessThanOrEqualTo(got.get(r - 1).score());
                    }
                }
            }
        }
    }

    /** The oracle's winners above are clear ones (a margin of 1%; Lucene scores in floats), so that float rounding cannot decide them. */
    @Test
    void theOraclesWinnersAreClear() {
        for (String q : QUERIES) {
            double[] s = oracle(PARAGRAPHS, q).clone();
            java.util.Arrays.sort(s);
            assertThat(s[s.length - 1]).as(q).isGreaterThan(1.01 * s[s.length - 2]);
        }
    }

    /**
     * The query is analysed as the index is: stop words do not count and words are stemmed, so a paragraph of "of the"
     * does not outrank the director's page for "directors of horror films".
     */
    @Test
    void stopWordsDoNotCountAndWordsAreStemmed() {
        List<Document> docs = List.of(
                Document.of("a", "Of the Year", "Of the year, of the decade, of the century: a list of the lists."),
                Document.of("b", "Scott Derrickson", "Scott Derrickson is an American director. He directed the horror film"
                        + " Sinister and the horror film Deliver Us From Evil, among other work in film."));
        try (QuestionCorpus corpus = new QuestionCorpus(docs)) {
            List<Passage> got = corpus.search("directors of horror films", 2);
            assertThat(got).extracting(Passage::id).containsExactly("b", "a");
            assertThat(got.get(1).score()).isZero();
            assertThat(corpus.search("the of and", 2)).extracting(Passage::score).containsOnly(0.0);
        }
    }

    @Test
    void everyPassageIsRankedUnmatchedOnesLastInTheDatasetsOrder() {
        List<Document> docs = new ArrayList<>(PARAGRAPHS);
        docs.add(Document.of("", "Untitled", "A passage without an id."));
        docs.add(PARAGRAPHS.get(6)); // a repeated paragraph: the same score, after the first
        try (QuestionCorpus corpus = new QuestionCorpus(docs)) {
            assertThat(corpus.search("zebra", 20)).extracting(Passage::id)
                    .containsExactly("p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "10", "p6");
            List<Passage> glen = corpus.search("Glen or Glenda", 12);
            assertThat(glen).extracting(Passage::id).startsWith("p6", "p6");
            assertThat(glen.get(0).score()).isPositive().isEqualTo(glen.get(1).score());
            assertThat(glen.subList(2, 12)).extracting(Passage::score).containsOnly(0.0);
            assertThat(glen.subList(2, 12)).extracting(Passage::id)
                    .containsExactly("p0", "p1", "p2", "p3", "p4", "p5", "p7", "p8", "p9", "10");
            assertThat(corpus.search("Ed Wood", 3)).hasSize(3);
            assertThat(corpus.search("Ed Wood", 0)).isEmpty();
            assertThat(corpus.search("", 4)).extracting(Passage::id).containsExactly("p0", "p1", "p2", "p3");
        }
        try (QuestionCorpus empty = new QuestionCorpus(List.of())) {
            assertThat(empty.search("Ed Wood", 10)).isEmpty();
        }
    }

    /** The authors' retrieve_times: the n-th time a query is issued it gets the passages ranked n*10 .. n*10+9. */
    @Test
    void aReissuedQueryGetsTheNextTenOfTheRanking() {
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            // one length, fewer "horror" each: ranked in order
            docs.add(Document.of("d" + i, "Page", "horror ".repeat(25 - i) + "filler ".repeat(i)));
        }
        try (QuestionCorpus corpus = new QuestionCorpus(docs)) {
            SearchCache cache = new SearchCache(corpus, SearchCache.PAGE_SIZE);
            assertThat(cache.page("horror", 0)).extracting(Doc::id).containsExactly(ids(0, 10));
            assertThat(cache.page("horror", 1)).extracting(Doc::id).containsExactly(ids(10, 20));
            assertThat(cache.page("horror", 2)).extracting(Doc::id).containsExactly(ids(20, 25));
            assertThat(cache.page("horror", 3)).isEmpty();
            assertThat(cache.searches()).isEqualTo(3); // the third page came short: the fourth needs no search
        }
    }

    private static String[] ids(int from, int to) {
        String[] out = new String[to - from];
        for (int i = from; i < to; i++) {
            out[i - from] = "d" + i;
        }
        return out;
    }

    /**
     * Okapi BM25 from its definition, in Lucene's form (no constant factor k1 + 1, which changes no ranking): for each
     * query term t, counted as often as the query holds it, {@code idf(t) * tf / (tf + k1 * (1 - b + b * dl / avgdl))}
     * with {@code idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))}. The text is the title then the paragraph, analysed
     * with Anserini's analyzer; {@code dl} is the length a Lucene index keeps, rounded to one byte
     * ({@link SmallFloat#intToByte4}), {@code avgdl} the exact mean.
     */
    static double[] oracle(List<Document> docs, String query) {
        Analyzer analyzer = new AnseriniAnalyzer();
        int n = docs.size();
        List<Map<String, Integer>> tf = new ArrayList<>();
        int[] length = new int[n];
        Map<String, Integer> df = new HashMap<>();
        long total = 0;
        for (int i = 0; i < n; i++) {
            Document d = docs.get(i);
            List<String> terms = terms(analyzer, d.title().isEmpty() ? d.text() : d.title() + "\n" + d.text());
            Map<String, Integer> counts = new HashMap<>();
            terms.forEach(t -> counts.merge(t, 1, Integer::sum));
            counts.keySet().forEach(t -> df.merge(t, 1, Integer::sum));
            tf.add(counts);
            length[i] = terms.size();
            total += terms.size();
        }
        double avgdl = (double) total / n;
        Map<String, Integer> q = new HashMap<>();
        terms(analyzer, query).forEach(t -> q.merge(t, 1, Integer::sum));
        double[] score = new double[n];
        for (int i = 0; i < n; i++) {
            double dl = SmallFloat.byte4ToInt(SmallFloat.intToByte4(length[i]));
            for (Map.Entry<String, Integer> e : q.entrySet()) {
                Integer f = tf.get(i).get(e.getKey());
                if (f == null) {
                    continue;
                }
                int m = df.get(e.getKey());
                double idf = Math.log(1 + (n - m + 0.5) / (m + 0.5));
                score[i] += e.getValue() * idf * f / (f + K1 * (1 - B + B * dl / avgdl));
            }
        }
        return score;
    }

    private static List<String> terms(Analyzer analyzer, String text) {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream("contents", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
