package dev.veracity.retrieval.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticCorpusTest {

    @Test
    void passagesAreDeterministicZipfAndHundredWords() {
        SyntheticCorpus c = SyntheticCorpus.standard();
        assertThat(c.passage(7)).isEqualTo(SyntheticCorpus.standard().passage(7));
        assertThat(c.passage(7).text().split(" ")).hasSize(100);
        assertThat(c.passage(8).text()).isNotEqualTo(c.passage(7).text());
        assertThat(SyntheticCorpus.word(0)).isEqualTo("baba");
        long top = 0;
        for (int i = 0; i < 100; i++) {
            for (String w : c.passage(i).text().split(" ")) {
                top += w.equals("baba") ? 1 : 0;
            }
        }
        assertThat(top).isBetween(500L, 1100L); // rank 1 of 100k under Zipf(1): ~8% of words
    }

    @Test
    void smallBenchmarkPrintsItsFigures(@TempDir Path dir) throws Exception {
        var out = new ByteArrayOutputStream();
        var r = RetrievalBenchmark.run(dir, 3000, 0, 50, new PrintStream(out, true));
        assertThat(r.indexPassagesPerSecond()).isPositive();
        assertThat(r.bm25P95Ms()).isGreaterThanOrEqualTo(r.bm25P50Ms());
        assertThat(out.toString()).contains("passages/s", "p50", "p95");
        assertThat(RetrievalBenchmark.percentile(new double[] {5, 1, 3, 2, 4}, 50)).isEqualTo(3);
    }
}
