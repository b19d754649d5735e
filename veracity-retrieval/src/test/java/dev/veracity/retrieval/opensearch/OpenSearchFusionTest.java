package dev.veracity.retrieval.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.retrieval.Passage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.junit.jupiter.api.Test;

/**
 * OpenSearch's hybrid fuses on our side exactly as our Lucene index does ({@link TopDocs#rrf}, k = 60): the same
 * passages, order and scores, ties included (to the passage earlier in the corpus, Lucene's doc id), on random lists.
 */
class OpenSearchFusionTest {

    @Test
    void fusionIsLucenesReciprocalRankFusion() {
        Random random = new Random(7);
        for (int round = 0; round < 2000; round++) {
            int corpus = 1 + random.nextInt(60);
            List<List<Integer>> lists = List.of(randomList(random, corpus), randomList(random, corpus));
            int k = 1 + random.nextInt(20);
            TopDocs lucene = TopDocs.rrf(k, 60, lists.stream().map(OpenSearchFusionTest::topDocs).toArray(TopDocs[]::new));
            List<Passage> ours = OpenSearchIndex.fuse(lists.stream().map(l -> l.stream()
                    .map(doc -> new OpenSearchIndex.Hit(new Passage("p" + doc, "", "", 0), doc)).toList()).toList(), k);
            assertThat(ours.stream().map(Passage::id).toList()).as("round " + round)
                    .isEqualTo(List.of(lucene.scoreDocs).stream().map(d -> "p" + d.doc).toList());
            for (int i = 0; i < ours.size(); i++) {
                assertThat(ours.get(i).score()).isEqualTo((double) lucene.scoreDocs[i].score);
            }
        }
    }

    private static List<Integer> randomList(Random random, int corpus) {
        List<Integer> docs = new ArrayList<>();
        for (int d = 0; d < corpus; d++) {
            docs.add(d);
        }
        Collections.shuffle(docs, random);
        return docs.subList(0, random.nextInt(corpus + 1));
    }

    private static TopDocs topDocs(List<Integer> ranked) {
        ScoreDoc[] docs = new ScoreDoc[ranked.size()];
        for (int i = 0; i < docs.length; i++) {
            docs[i] = new ScoreDoc(ranked.get(i), docs.length - i, 0);
        }
        return new TopDocs(new TotalHits(docs.length, TotalHits.Relation.EQUAL_TO), docs);
    }
}
